import { updateReachSettingsRoute } from '../../shared/api/routes/reach.ts';
import { route } from '../../shared/http/route.ts';
import { updateReachSettings } from '../../shared/reach/settings.ts';

export const handler = route(updateReachSettingsRoute, async (req) => updateReachSettings(req.caller.userId, req.body));
