import { sharePost } from '../../shared/api/routes/feed.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { sharePost as share } from '../../shared/feed/posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(sharePost, async (req) =>
  postView(req.caller, await share(req.caller, req.params.postId, req.body.content ?? ''), { consistent: true }),
);
