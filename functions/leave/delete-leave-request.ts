import { deleteLeaveRequestRoute } from '../../shared/api/routes/leave.ts';
import { deleteLeaveRequest } from '../../shared/hr/leave.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deleteLeaveRequestRoute, async (req) => {
  await deleteLeaveRequest(req.caller.user, req.params.requestId);
});
