import { hidePostRoute } from '../../shared/api/routes/feed.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { setHidden } from '../../shared/feed/posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(hidePostRoute, async (req) =>
  postView(req.caller, await setHidden(req.caller, req.params.postId, true), { consistent: true }),
);
