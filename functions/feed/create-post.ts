import { createPostRoute } from '../../shared/api/routes/feed.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { createPost } from '../../shared/feed/posts.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(createPostRoute, async (req) => {
  const { content, poll, recognition, ...rest } = req.body;
  const post = await createPost(req.caller, {
    ...rest,
    content: content ?? undefined,
    poll: poll ?? undefined,
    recognition: recognition ?? undefined,
  });
  return postView(req.caller, post, { consistent: true });
});
