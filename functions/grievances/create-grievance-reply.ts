import { createGrievanceReply } from '../../shared/api/routes/grievances.ts';
import { createReply } from '../../shared/grievances/replies.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(createGrievanceReply, async (req) =>
  createReply(req.caller.userId, req.params.grievanceId, req.body.body, { asHandler: false }),
);
