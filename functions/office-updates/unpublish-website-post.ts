import { unpublishWebsitePostRoute } from '../../shared/api/routes/office-updates.ts';
import { route } from '../../shared/http/route.ts';
import { websitePosts } from '../../shared/office-updates/public-view.ts';
import { decide } from '../../shared/office-updates/website.ts';

export const handler = route(unpublishWebsitePostRoute, async (req) => {
  const { entry, post } = await decide(req.params.postId, 'unpublish', req.caller, req.body.reason ?? null);
  return (await websitePosts([entry], [post]))[0];
});
