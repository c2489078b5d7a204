import { readGrievanceRoute } from '../../shared/api/routes/grievances.ts';
import { loadGrievance } from '../../shared/grievances/grievances.ts';
import { markRead } from '../../shared/grievances/read-state.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(readGrievanceRoute, async (req) => {
  await markRead(req.caller.userId, await loadGrievance(req.params.grievanceId));
});
