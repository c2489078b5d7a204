import { getMemberDataExportRoute } from '../../shared/api/routes/data-rights.ts';
import { exportView, readExport } from '../../shared/data-rights/export-requests.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getMemberDataExportRoute, async (req) =>
  exportView(await readExport(req.params.userId, req.params.exportId)),
);
