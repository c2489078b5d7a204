import { createLeaveRequestRoute } from '../../shared/api/routes/leave.ts';
import { createLeaveRequest, toLeaveRequests } from '../../shared/hr/leave.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(
  createLeaveRequestRoute,
  async (req) => (await toLeaveRequests([await createLeaveRequest(req.caller.user, req.body)]))[0],
);
