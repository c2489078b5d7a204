import { deleteGrievanceReplyRoute } from '../../shared/api/routes/grievances.ts';
import { deleteReply } from '../../shared/grievances/replies.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deleteGrievanceReplyRoute, async (req) => {
  await deleteReply(req.caller.userId, req.params.grievanceId, req.params.replyId);
});
