import { listPosts } from '../../shared/api/routes/feed.ts';
import { listPosts as list } from '../../shared/feed/list-posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listPosts, async (req) => {
  const { cursor, limit, ...filters } = req.query;
  return list(req.caller, filters, limit, cursor);
});
