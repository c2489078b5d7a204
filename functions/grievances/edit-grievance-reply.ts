import { editGrievanceReplyRoute } from '../../shared/api/routes/grievances.ts';
import { editReply } from '../../shared/grievances/replies.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(editGrievanceReplyRoute, async (req) =>
  editReply(req.caller.userId, req.params.grievanceId, req.params.replyId, req.body.body),
);
