import { createGrievanceReplyRoute } from '../../shared/api/routes/grievances.ts';
import { createReply } from '../../shared/grievances/replies.ts';
import { anonymousIdempotentRoute } from '../../shared/http/anonymous-idempotent-route.ts';

export const handler = anonymousIdempotentRoute(createGrievanceReplyRoute, async (req) =>
  createReply(req.caller.userId, req.params.grievanceId, req.body.body, { asHandler: false }),
);
