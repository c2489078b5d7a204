import { getGrievance } from '../../shared/api/routes/grievances.ts';
import { getGrievance as get } from '../../shared/grievances/grievances.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getGrievance, async (req) => get(req.caller.userId, req.params.grievanceId));
