import { checkIn } from '../../shared/api/routes/attendance.ts';
import { checkIn as arrive } from '../../shared/hr/attendance.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(checkIn, async (req) => arrive(req.caller.user));
