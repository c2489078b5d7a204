import { getPostReachRoute } from '../../shared/api/routes/reach.ts';
import { route } from '../../shared/http/route.ts';
import { postReach } from '../../shared/reach/reach.ts';

export const handler = route(getPostReachRoute, async (req) => postReach(req.params.postId, req.query.by));
