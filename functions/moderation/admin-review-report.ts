import { reviewReportRoute } from '../../shared/api/routes/moderation.ts';
import { route } from '../../shared/http/route.ts';
import { reviewReport } from '../../shared/moderation/reports.ts';

export const handler = route(reviewReportRoute, async (req) => reviewReport(req.caller, req.params.reportId, req.body));
