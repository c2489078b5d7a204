import { listAttendanceEmployeesRoute } from '../../shared/api/routes/attendance.ts';
import { employees } from '../../shared/hr/attendance.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listAttendanceEmployeesRoute, async (req) => employees(req.caller.user));
