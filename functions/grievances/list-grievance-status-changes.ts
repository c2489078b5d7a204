import { listGrievanceStatusChangesRoute } from '../../shared/api/routes/grievances.ts';
import { listStatusChanges } from '../../shared/grievances/status.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listGrievanceStatusChangesRoute, async (req) =>
  listStatusChanges(req.params.grievanceId, { admin: false }),
);
