import { listGrievancesRoute } from '../../shared/api/routes/grievances.ts';
import { listBoard } from '../../shared/grievances/grievances.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listGrievancesRoute, async (req) => listBoard(req.caller.userId, req.query));
