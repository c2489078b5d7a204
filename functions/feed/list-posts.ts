import { listPostsRoute } from '../../shared/api/routes/feed.ts';
import { listPosts } from '../../shared/feed/list-posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listPostsRoute, async (req) => {
  const { cursor, limit, ...filters } = req.query;
  return listPosts(req.caller, filters, limit, cursor);
});
