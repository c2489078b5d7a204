import { getLeaveContextRoute } from '../../shared/api/routes/leave.ts';
import { leaveContext } from '../../shared/hr/leave.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getLeaveContextRoute, async (req) => leaveContext(req.caller.user));
