import { checkInRoute } from '../../shared/api/routes/attendance.ts';
import { checkIn } from '../../shared/hr/attendance.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(checkInRoute, async (req) => checkIn(req.caller.user));
