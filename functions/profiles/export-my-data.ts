import { exportMyDataRoute } from '../../shared/api/routes/data-rights.ts';
import { exportView, startExport } from '../../shared/data-rights/export-requests.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(exportMyDataRoute, async (req) =>
  exportView(await startExport(req.caller.userId, req.caller.userId)),
);
