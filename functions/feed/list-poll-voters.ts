import { listPollVotersRoute } from '../../shared/api/routes/feed.ts';
import { pollVoters } from '../../shared/feed/polls.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listPollVotersRoute, async (req) => pollVoters(req.caller, req.params.postId));
