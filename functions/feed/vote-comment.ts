import { voteCommentRoute } from '../../shared/api/routes/feed.ts';
import { voteOnComment } from '../../shared/feed/comments.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(voteCommentRoute, async (req) =>
  voteOnComment(req.caller, req.params.commentId, req.body.vote),
);
