import { getAttendanceTodayRoute } from '../../shared/api/routes/attendance.ts';
import { today } from '../../shared/hr/attendance.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getAttendanceTodayRoute, async (req) => today(req.caller.user));
