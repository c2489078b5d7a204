import { adminGetGrievanceStatsRoute } from '../../shared/api/routes/grievances.ts';
import { handlerStats } from '../../shared/grievances/stats.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(adminGetGrievanceStatsRoute, async (req) => handlerStats(req.query.from, req.query.to));
