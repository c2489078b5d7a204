import { deletePostRoute } from '../../shared/api/routes/feed.ts';
import { deletePost } from '../../shared/feed/posts.ts';
import { deleteScheduledPost, ownScheduledPost } from '../../shared/feed/scheduled-posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deletePostRoute, async (req) => {
  const scheduled = await ownScheduledPost(req.caller, req.params.postId);
  if (scheduled) await deleteScheduledPost(scheduled);
  else await deletePost(req.caller, req.params.postId);
});
