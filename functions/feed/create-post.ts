import { createPostRoute } from '../../shared/api/routes/feed.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { createPost, postInputOf } from '../../shared/feed/posts.ts';
import { scheduledView, schedulePost } from '../../shared/feed/scheduled-posts.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(createPostRoute, async (req) => {
  const { input, publishAt } = postInputOf(req.body);
  if (publishAt) return scheduledView(req.caller, await schedulePost(req.caller, input, publishAt));
  return postView(req.caller, await createPost(req.caller, input), { consistent: true });
});
