import { getErasureRoute } from '../../shared/api/routes/data-rights.ts';
import { erasureView, readErasure } from '../../shared/data-rights/erasure-requests.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getErasureRoute, async (req) => erasureView(await readErasure(req.params.erasureId)));
