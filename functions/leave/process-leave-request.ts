import { processLeaveRequestRoute } from '../../shared/api/routes/leave.ts';
import { processLeaveRequest, toLeaveRequests } from '../../shared/hr/leave.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(
  processLeaveRequestRoute,
  async (req) =>
    (await toLeaveRequests([await processLeaveRequest(req.caller.user, req.params.requestId, req.body)]))[0],
);
