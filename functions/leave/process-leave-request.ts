import { processLeaveRequest } from '../../shared/api/routes/leave.ts';
import { processLeaveRequest as decide, toLeaveRequests } from '../../shared/hr/leave.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(
  processLeaveRequest,
  async (req) => (await toLeaveRequests([await decide(req.caller.user, req.params.requestId, req.body)]))[0],
);
