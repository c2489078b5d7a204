import { followPersonRoute } from '../../shared/api/routes/feed.ts';
import { follow } from '../../shared/feed/social.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(followPersonRoute, async (req) => {
  await follow(req.caller, req.params.userId);
});
