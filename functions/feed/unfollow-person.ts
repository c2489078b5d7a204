import { unfollowPersonRoute } from '../../shared/api/routes/feed.ts';
import { unfollow } from '../../shared/feed/social.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(unfollowPersonRoute, async (req) => {
  await unfollow(req.caller, req.params.userId);
});
