import { sharePost } from '../../shared/api/routes/feed.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { sharePost as share } from '../../shared/feed/posts.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(sharePost, async (req) =>
  postView(req.caller, await share(req.caller, req.params.postId, req.body.content ?? ''), { consistent: true }),
);
