import { reportCommentRoute } from '../../shared/api/routes/moderation.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';
import { fileReport } from '../../shared/moderation/reports.ts';

export const handler = idempotentRoute(reportCommentRoute, async (req) =>
  fileReport(req.caller, { postId: req.params.postId, commentId: req.params.commentId }, req.body),
);
