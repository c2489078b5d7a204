import { listTodaysBirthdaysRoute } from '../../shared/api/routes/birthdays.ts';
import { todaysBirthdays } from '../../shared/calendar/birthdays/today.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listTodaysBirthdaysRoute, async (req) => todaysBirthdays(req.caller.user));
