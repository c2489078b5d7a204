import { updateCommentRoute } from '../../shared/api/routes/feed.ts';
import { commentViews, updateComment } from '../../shared/feed/comments.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(updateCommentRoute, async (req) => {
  const comment = await updateComment(req.caller, req.params.commentId, req.body.content);
  return (await commentViews(req.caller, [comment], true))[0];
});
