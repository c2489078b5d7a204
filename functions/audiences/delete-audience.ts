import { deleteAudienceRoute } from '../../shared/api/routes/audiences.ts';
import { deleteAudience } from '../../shared/audiences/audiences.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deleteAudienceRoute, async (req) => {
  await deleteAudience(req.params.audienceId);
});
