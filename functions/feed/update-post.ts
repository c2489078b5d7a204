import { updatePost } from '../../shared/api/routes/feed.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { updatePost as update } from '../../shared/feed/posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(updatePost, async (req) => {
  const { content, poll, recognition, ...rest } = req.body;
  const post = await update(req.caller, req.params.postId, {
    ...rest,
    content: content ?? undefined,
    poll: poll ?? undefined,
    recognition: recognition ?? undefined,
  });
  return postView(req.caller, post, { consistent: true });
});
