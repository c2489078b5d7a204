import { listComments } from '../../shared/api/routes/feed.ts';
import { listComments as list } from '../../shared/feed/comments.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listComments, async (req) =>
  list(req.caller, req.params.postId, req.query.limit, req.query.cursor),
);
