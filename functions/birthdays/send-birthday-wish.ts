import { sendBirthdayWishRoute } from '../../shared/api/routes/birthdays.ts';
import { sendWish } from '../../shared/calendar/birthdays/wishes.ts';
import { idempotentRoute } from '../../shared/http/idempotent-route.ts';

export const handler = idempotentRoute(sendBirthdayWishRoute, async (req) => {
  await sendWish(req.caller.user, req.params.userId, req.body.message);
});
