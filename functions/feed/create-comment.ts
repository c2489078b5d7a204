import { createCommentRoute } from '../../shared/api/routes/feed.ts';
import { commentViews, createComment } from '../../shared/feed/comments.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(createCommentRoute, async (req) => {
  const comment = await createComment(req.caller, req.params.postId, req.body.content, req.body.parentId);
  return (await commentViews(req.caller, [comment], true))[0];
});
