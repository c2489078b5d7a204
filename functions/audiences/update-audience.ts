import { updateAudienceRoute } from '../../shared/api/routes/audiences.ts';
import { toAudience, updateAudience } from '../../shared/audiences/audiences.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(updateAudienceRoute, async (req) =>
  toAudience(await updateAudience(req.caller.userId, req.params.audienceId, req.body)),
);
