import { approveWebsitePostRoute } from '../../shared/api/routes/office-updates.ts';
import { httpDateHeader } from '../../shared/http/conditional.ts';
import { route } from '../../shared/http/route.ts';
import { websitePosts } from '../../shared/office-updates/public-view.ts';
import { decide } from '../../shared/office-updates/website.ts';

export const handler = route(approveWebsitePostRoute, async (req) => {
  const reviewedAt = httpDateHeader(req.headers, 'if-unmodified-since');
  const { entry, post } = await decide(req.params.postId, 'approve', req.caller, null, { reviewedAt });
  return (await websitePosts([entry], [post]))[0];
});
