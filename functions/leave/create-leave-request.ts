import { createLeaveRequest } from '../../shared/api/routes/leave.ts';
import { createLeaveRequest as create, toLeaveRequests } from '../../shared/hr/leave.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(
  createLeaveRequest,
  async (req) => (await toLeaveRequests([await create(req.caller.user, req.body)]))[0],
);
