import { createPost } from '../../shared/api/routes/feed.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { createPost as create } from '../../shared/feed/posts.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(createPost, async (req) => {
  const { content, poll, recognition, ...rest } = req.body;
  const post = await create(req.caller, {
    ...rest,
    content: content ?? undefined,
    poll: poll ?? undefined,
    recognition: recognition ?? undefined,
  });
  return postView(req.caller, post, { consistent: true });
});
