import { closePollRoute } from '../../shared/api/routes/feed.ts';
import { closePoll } from '../../shared/feed/polls.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(closePollRoute, async (req) => closePoll(req.caller, req.params.postId));
