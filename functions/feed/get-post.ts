import { getPostRoute } from '../../shared/api/routes/feed.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { readablePost } from '../../shared/feed/posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getPostRoute, async (req) =>
  postView(req.caller, await readablePost(req.caller, req.params.postId)),
);
