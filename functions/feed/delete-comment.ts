import { deleteCommentRoute } from '../../shared/api/routes/feed.ts';
import { deleteComment } from '../../shared/feed/comments.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deleteCommentRoute, async (req) => {
  await deleteComment(req.caller, req.params.commentId);
});
