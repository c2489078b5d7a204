import { getAudienceRoute } from '../../shared/api/routes/audiences.ts';
import { getAudience, toAudience } from '../../shared/audiences/audiences.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getAudienceRoute, async (req) => toAudience(await getAudience(req.params.audienceId)));
