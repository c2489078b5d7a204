import { listLeaveRequests } from '../../shared/api/routes/leave.ts';
import { listLeaveRequests as list, toLeaveRequests } from '../../shared/hr/leave.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listLeaveRequests, async (req) => toLeaveRequests(await list(req.caller.user, req.query)));
