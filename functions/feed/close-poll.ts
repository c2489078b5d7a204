import { closePoll } from '../../shared/api/routes/feed.ts';
import { closePoll as close } from '../../shared/feed/polls.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(closePoll, async (req) => close(req.caller, req.params.postId));
