import { adminGetGrievanceRoute } from '../../shared/api/routes/grievances.ts';
import { getGrievance } from '../../shared/grievances/grievances.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(adminGetGrievanceRoute, async (req) =>
  getGrievance(req.caller.userId, req.params.grievanceId),
);
