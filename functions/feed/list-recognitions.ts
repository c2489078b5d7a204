import { listRecognitions } from '../../shared/api/routes/feed.ts';
import { listPosts } from '../../shared/feed/list-posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listRecognitions, async (req) =>
  listPosts(req.caller, { type: 'recognition' }, req.query.limit, req.query.cursor),
);
