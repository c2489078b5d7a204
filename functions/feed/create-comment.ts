import { createComment } from '../../shared/api/routes/feed.ts';
import { commentViews, createComment as create } from '../../shared/feed/comments.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(createComment, async (req) => {
  const comment = await create(req.caller, req.params.postId, req.body.content, req.body.parentId);
  return (await commentViews(req.caller, [comment], true))[0];
});
