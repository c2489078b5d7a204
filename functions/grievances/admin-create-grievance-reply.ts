import { adminCreateGrievanceReply } from '../../shared/api/routes/grievances.ts';
import { createReply } from '../../shared/grievances/replies.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(adminCreateGrievanceReply, async (req) =>
  createReply(req.caller.userId, req.params.grievanceId, req.body.body, { asHandler: true }),
);
