import { getOfficeUpdateRoute } from '../../shared/api/routes/office-updates.ts';
import { route } from '../../shared/http/route.ts';
import { officeUpdate } from '../../shared/office-updates/public-view.ts';

export const handler = route(getOfficeUpdateRoute, async (req) => officeUpdate(req.params.postId));
