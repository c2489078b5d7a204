import { getWebsiteCountsRoute } from '../../shared/api/routes/office-updates.ts';
import { route } from '../../shared/http/route.ts';
import { websiteCounts } from '../../shared/office-updates/website.ts';

export const handler = route(getWebsiteCountsRoute, async () => websiteCounts());
