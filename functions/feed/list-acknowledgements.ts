import { listAcknowledgementsRoute } from '../../shared/api/routes/feed.ts';
import { listAcknowledgements } from '../../shared/feed/must-read.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listAcknowledgementsRoute, async (req) =>
  listAcknowledgements(req.caller, req.params.postId, req.query.status ?? 'pending', req.query.limit, req.query.cursor),
);
