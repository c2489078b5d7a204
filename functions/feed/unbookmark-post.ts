import { unbookmarkPostRoute } from '../../shared/api/routes/feed.ts';
import { unbookmark } from '../../shared/feed/social.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(unbookmarkPostRoute, async (req) => {
  await unbookmark(req.caller, req.params.postId);
});
