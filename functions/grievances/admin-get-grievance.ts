import { adminGetGrievance } from '../../shared/api/routes/grievances.ts';
import { getGrievance } from '../../shared/grievances/grievances.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(adminGetGrievance, async (req) => getGrievance(req.caller.userId, req.params.grievanceId));
