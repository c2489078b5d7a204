import { listReportsRoute } from '../../shared/api/routes/moderation.ts';
import { route } from '../../shared/http/route.ts';
import { listReports } from '../../shared/moderation/reports.ts';

export const handler = route(listReportsRoute, async (req) => listReports(req.query));
