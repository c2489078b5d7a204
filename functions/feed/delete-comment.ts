import { deleteComment } from '../../shared/api/routes/feed.ts';
import { deleteComment as remove } from '../../shared/feed/comments.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deleteComment, async (req) => {
  await remove(req.caller, req.params.commentId);
});
