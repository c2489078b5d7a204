import { sharePostRoute } from '../../shared/api/routes/feed.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { sharePost } from '../../shared/feed/posts.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(sharePostRoute, async (req) =>
  postView(req.caller, await sharePost(req.caller, req.params.postId, req.body.content ?? ''), { consistent: true }),
);
