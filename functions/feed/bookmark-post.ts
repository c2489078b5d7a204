import { bookmarkPostRoute } from '../../shared/api/routes/feed.ts';
import { bookmark } from '../../shared/feed/social.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(bookmarkPostRoute, async (req) => {
  await bookmark(req.caller, req.params.postId);
});
