import { checkOutRoute } from '../../shared/api/routes/attendance.ts';
import { checkOut } from '../../shared/hr/attendance.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(checkOutRoute, async (req) => checkOut(req.caller.user));
