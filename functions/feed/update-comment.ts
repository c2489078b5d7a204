import { updateComment } from '../../shared/api/routes/feed.ts';
import { commentViews, updateComment as update } from '../../shared/feed/comments.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(updateComment, async (req) => {
  const comment = await update(req.caller, req.params.commentId, req.body.content);
  return (await commentViews(req.caller, [comment], true))[0];
});
