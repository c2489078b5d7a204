import { getGrievanceRoute } from '../../shared/api/routes/grievances.ts';
import { getGrievance } from '../../shared/grievances/grievances.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getGrievanceRoute, async (req) => getGrievance(req.caller.userId, req.params.grievanceId));
