import { acknowledgePostRoute } from '../../shared/api/routes/feed.ts';
import { acknowledge } from '../../shared/feed/must-read.ts';
import { postView } from '../../shared/feed/post-view.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(acknowledgePostRoute, async (req) =>
  postView(req.caller, await acknowledge(req.caller, req.params.postId), { consistent: true }),
);
