import { listRecognitionsRoute } from '../../shared/api/routes/feed.ts';
import { listPosts } from '../../shared/feed/list-posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listRecognitionsRoute, async (req) =>
  listPosts(req.caller, { type: 'recognition' }, req.query.limit, req.query.cursor),
);
