import { listScheduledPostsRoute } from '../../shared/api/routes/feed.ts';
import { listScheduledPosts, scheduledViews } from '../../shared/feed/scheduled-posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listScheduledPostsRoute, async (req) => {
  const { items, nextCursor } = await listScheduledPosts(req.caller, req.query.limit, req.query.cursor);
  return { items: await scheduledViews(req.caller, items), nextCursor };
});
