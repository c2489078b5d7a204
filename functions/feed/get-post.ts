import { getPostRoute } from '../../shared/api/routes/feed.ts';
import { DomainError } from '../../shared/errors.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { readablePost } from '../../shared/feed/posts.ts';
import { ownScheduledPost, scheduledView } from '../../shared/feed/scheduled-posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getPostRoute, async (req) => {
  try {
    return await postView(req.caller, await readablePost(req.caller, req.params.postId));
  } catch (err) {
    // Not a post (yet): the caller's own scheduled post reads as the post it will be.
    const scheduled =
      err instanceof DomainError && err.kind === 'not-found' && (await ownScheduledPost(req.caller, req.params.postId));
    if (scheduled) return scheduledView(req.caller, scheduled);
    throw err;
  }
});
