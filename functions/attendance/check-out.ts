import { checkOut } from '../../shared/api/routes/attendance.ts';
import { checkOut as leave } from '../../shared/hr/attendance.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(checkOut, async (req) => leave(req.caller.user));
