import { getReachSettingsRoute } from '../../shared/api/routes/reach.ts';
import { route } from '../../shared/http/route.ts';
import { reachSettings } from '../../shared/reach/settings.ts';

export const handler = route(getReachSettingsRoute, async () => reachSettings());
