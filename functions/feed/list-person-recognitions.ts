import { listPersonRecognitionsRoute } from '../../shared/api/routes/feed.ts';
import { listRecognitionsOf } from '../../shared/feed/list-posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listPersonRecognitionsRoute, async (req) =>
  listRecognitionsOf(req.caller, req.params.userId, req.query.limit, req.query.cursor),
);
