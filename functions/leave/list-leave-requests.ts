import { listLeaveRequestsRoute } from '../../shared/api/routes/leave.ts';
import { listLeaveRequests, toLeaveRequests } from '../../shared/hr/leave.ts';
import { pagedArray } from '../../shared/http/next-link.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listLeaveRequestsRoute, async (req) => {
  const page = await listLeaveRequests(req.caller.user, req.query);
  return pagedArray(req.event, listLeaveRequestsRoute.status, await toLeaveRequests(page.requests), page.nextCursor);
});
