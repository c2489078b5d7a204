import { listCommentRepliesRoute } from '../../shared/api/routes/feed.ts';
import { listReplies } from '../../shared/feed/comments.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listCommentRepliesRoute, async (req) =>
  listReplies(req.caller, req.params.commentId, req.query.limit, req.query.cursor),
);
