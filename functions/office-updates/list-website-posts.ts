import { listWebsitePostsRoute } from '../../shared/api/routes/office-updates.ts';
import { route } from '../../shared/http/route.ts';
import { websitePosts } from '../../shared/office-updates/public-view.ts';
import { websiteQueuePage } from '../../shared/office-updates/website.ts';

export const handler = route(listWebsitePostsRoute, async (req) => {
  const page = await websiteQueuePage(req.query.status, req.query.limit, req.query.cursor);
  return { items: await websitePosts(page.items), nextCursor: page.nextCursor };
});
