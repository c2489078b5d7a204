import { bookmarkPost } from '../../shared/api/routes/feed.ts';
import { bookmark } from '../../shared/feed/social.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(bookmarkPost, async (req) => {
  await bookmark(req.caller, req.params.postId);
});
