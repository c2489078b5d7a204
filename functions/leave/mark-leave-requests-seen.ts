import { markLeaveRequestsSeenRoute } from '../../shared/api/routes/leave.ts';
import { markSeen } from '../../shared/hr/leave.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(markLeaveRequestsSeenRoute, async (req) => {
  await markSeen(req.caller.user);
});
