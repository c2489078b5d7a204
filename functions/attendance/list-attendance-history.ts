import { listAttendanceHistoryRoute } from '../../shared/api/routes/attendance.ts';
import { history } from '../../shared/hr/attendance.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listAttendanceHistoryRoute, async (req) => history(req.caller.user, req.query));
