import { deletePostRoute } from '../../shared/api/routes/feed.ts';
import { deletePost } from '../../shared/feed/posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deletePostRoute, async (req) => {
  await deletePost(req.caller, req.params.postId);
});
