import { adminListGrievanceRepliesRoute } from '../../shared/api/routes/grievances.ts';
import { listReplies } from '../../shared/grievances/replies.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(adminListGrievanceRepliesRoute, async (req) =>
  listReplies(req.caller.userId, req.params.grievanceId, req.query, { admin: true }),
);
