import { replyBirthdayWishRoute } from '../../shared/api/routes/birthdays.ts';
import { replyToWish } from '../../shared/calendar/birthdays/wishes.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(replyBirthdayWishRoute, async (req) => {
  await replyToWish(req.caller.user, req.params.wishId, req.body.message);
});
