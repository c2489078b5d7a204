import { updatePostRoute } from '../../shared/api/routes/feed.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { updatePost } from '../../shared/feed/posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(updatePostRoute, async (req) => {
  const { content, poll, recognition, ...rest } = req.body;
  const post = await updatePost(req.caller, req.params.postId, {
    ...rest,
    content: content ?? undefined,
    poll: poll ?? undefined,
    recognition: recognition ?? undefined,
  });
  return postView(req.caller, post, { consistent: true });
});
