import { adminListGrievanceDeadlinesRoute } from '../../shared/api/routes/grievances.ts';
import { listDeadlines } from '../../shared/grievances/deadlines.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(adminListGrievanceDeadlinesRoute, async (req) => listDeadlines(req.query));
