import { sendBirthdayWish } from '../../shared/api/routes/birthdays.ts';
import { sendWish } from '../../shared/calendar/birthdays/wishes.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(sendBirthdayWish, async (req) => {
  await sendWish(req.caller.user, req.params.userId, req.body.message);
});
