import { reactToPostRoute } from '../../shared/api/routes/feed.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { setReaction } from '../../shared/feed/reactions.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(reactToPostRoute, async (req) =>
  postView(req.caller, await setReaction(req.caller, req.params.postId, req.body.reaction ?? 'like'), {
    consistent: true,
  }),
);
