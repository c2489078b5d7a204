import { getMyDataExportRoute } from '../../shared/api/routes/data-rights.ts';
import { exportView, readExport } from '../../shared/data-rights/export-requests.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getMyDataExportRoute, async (req) =>
  exportView(await readExport(req.caller.userId, req.params.exportId)),
);
