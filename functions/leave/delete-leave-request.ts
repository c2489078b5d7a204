import { deleteLeaveRequest } from '../../shared/api/routes/leave.ts';
import { deleteLeaveRequest as remove } from '../../shared/hr/leave.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(deleteLeaveRequest, async (req) => {
  await remove(req.caller.user, req.params.requestId);
});
