import { listCommentReplies } from '../../shared/api/routes/feed.ts';
import { listReplies } from '../../shared/feed/comments.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listCommentReplies, async (req) =>
  listReplies(req.caller, req.params.commentId, req.query.limit, req.query.cursor),
);
