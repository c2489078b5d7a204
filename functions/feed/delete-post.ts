import { deletePost } from '../../shared/api/routes/feed.ts';
import { deletePost as remove } from '../../shared/feed/posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deletePost, async (req) => {
  await remove(req.caller, req.params.postId);
});
