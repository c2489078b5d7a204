import { loveBirthdayWishRoute } from '../../shared/api/routes/birthdays.ts';
import { loveWish } from '../../shared/calendar/birthdays/wishes.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(loveBirthdayWishRoute, async (req) => {
  await loveWish(req.caller.user, req.params.wishId, req.body.loved);
});
