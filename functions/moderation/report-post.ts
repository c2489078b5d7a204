import { reportPostRoute } from '../../shared/api/routes/moderation.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';
import { fileReport } from '../../shared/moderation/reports.ts';

export const handler = idempotentRoute(reportPostRoute, async (req) =>
  fileReport(req.caller, { postId: req.params.postId }, req.body),
);
