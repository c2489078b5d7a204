import { listSeenByRoute } from '../../shared/api/routes/reach.ts';
import { route } from '../../shared/http/route.ts';
import { seenBy } from '../../shared/reach/receipts.ts';

export const handler = route(listSeenByRoute, async (req) => seenBy(req.caller, req.params.postId, req.query));
