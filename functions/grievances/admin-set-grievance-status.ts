import { adminSetGrievanceStatusRoute } from '../../shared/api/routes/grievances.ts';
import { moveStatus } from '../../shared/grievances/status.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(adminSetGrievanceStatusRoute, async (req) =>
  moveStatus(req.caller.userId, req.params.grievanceId, req.body.status, req.body.reason),
);
