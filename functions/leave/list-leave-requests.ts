import { listLeaveRequestsRoute } from '../../shared/api/routes/leave.ts';
import { listLeaveRequests, toLeaveRequests } from '../../shared/hr/leave.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listLeaveRequestsRoute, async (req) =>
  toLeaveRequests(await listLeaveRequests(req.caller.user, req.query)),
);
