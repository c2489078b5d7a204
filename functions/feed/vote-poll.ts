import { votePollRoute } from '../../shared/api/routes/feed.ts';
import { vote } from '../../shared/feed/polls.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(votePollRoute, async (req) => vote(req.caller, req.params.postId, req.body.optionId));
