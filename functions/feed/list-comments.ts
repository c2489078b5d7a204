import { listCommentsRoute } from '../../shared/api/routes/feed.ts';
import { listComments } from '../../shared/feed/comments.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listCommentsRoute, async (req) =>
  listComments(req.caller, req.params.postId, req.query.limit, req.query.cursor),
);
