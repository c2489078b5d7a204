import { updatePostRoute } from '../../shared/api/routes/feed.ts';
import { invalid } from '../../shared/errors.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { postInputOf, updatePost } from '../../shared/feed/posts.ts';
import { ownScheduledPost, scheduledView, updateScheduledPost } from '../../shared/feed/scheduled-posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(updatePostRoute, async (req) => {
  const { input, publishAt } = postInputOf(req.body);
  const scheduled = await ownScheduledPost(req.caller, req.params.postId);
  if (scheduled) return scheduledView(req.caller, await updateScheduledPost(req.caller, scheduled, input, publishAt));
  if (publishAt !== undefined) throw invalid(['publishAt: only a post still scheduled has one']);
  return postView(req.caller, await updatePost(req.caller, req.params.postId, input), { consistent: true });
});
