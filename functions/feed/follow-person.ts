import { followPerson } from '../../shared/api/routes/feed.ts';
import { follow } from '../../shared/feed/social.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(followPerson, async (req) => {
  await follow(req.caller, req.params.userId);
});
