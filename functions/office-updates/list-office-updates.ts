import { listOfficeUpdatesRoute } from '../../shared/api/routes/office-updates.ts';
import { route } from '../../shared/http/route.ts';
import { officeUpdates } from '../../shared/office-updates/public-view.ts';
import { officeUpdatesPage } from '../../shared/office-updates/website.ts';

export const handler = route(listOfficeUpdatesRoute, async (req) => {
  const page = await officeUpdatesPage(req.query.limit, req.query.cursor);
  return { items: await officeUpdates(page.items), nextCursor: page.nextCursor };
});
