import { eraseMemberRoute } from '../../shared/api/routes/data-rights.ts';
import { erasureView, startErasure } from '../../shared/data-rights/erasure-requests.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(eraseMemberRoute, async (req) =>
  erasureView(await startErasure(req.params.userId, req.caller.userId)),
);
