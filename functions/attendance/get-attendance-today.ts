import { getAttendanceToday } from '../../shared/api/routes/attendance.ts';
import { today } from '../../shared/hr/attendance.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(getAttendanceToday, async (req) => today(req.caller.user));
