import { replyBirthdayWish } from '../../shared/api/routes/birthdays.ts';
import { replyToWish } from '../../shared/calendar/birthdays/wishes.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(replyBirthdayWish, async (req) => {
  await replyToWish(req.caller.user, req.params.wishId, req.body.message);
});
