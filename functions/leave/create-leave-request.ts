import { createLeaveRequest } from '../../shared/api/routes/leave.ts';
import { createLeaveRequest as create, toLeaveRequests } from '../../shared/hr/leave.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(
  createLeaveRequest,
  async (req) => (await toLeaveRequests([await create(req.caller.user, req.body)]))[0],
);
