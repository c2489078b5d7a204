import { exportMemberDataRoute } from '../../shared/api/routes/data-rights.ts';
import { exportView, startExport } from '../../shared/data-rights/export-requests.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(exportMemberDataRoute, async (req) =>
  exportView(await startExport(req.params.userId, req.caller.userId)),
);
