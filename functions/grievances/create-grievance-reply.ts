import { createGrievanceReplyRoute } from '../../shared/api/routes/grievances.ts';
import { createReply } from '../../shared/grievances/replies.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(createGrievanceReplyRoute, async (req) =>
  createReply(req.caller.userId, req.params.grievanceId, req.body.body, { asHandler: false }),
);
