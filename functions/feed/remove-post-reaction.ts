import { removePostReactionRoute } from '../../shared/api/routes/feed.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { setReaction } from '../../shared/feed/reactions.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(removePostReactionRoute, async (req) =>
  postView(req.caller, await setReaction(req.caller, req.params.postId, null), { consistent: true }),
);
