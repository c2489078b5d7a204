import { listMyBirthdayWishesRoute } from '../../shared/api/routes/birthdays.ts';
import { myWishes } from '../../shared/calendar/birthdays/wishes.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listMyBirthdayWishesRoute, async (req) => myWishes(req.caller.userId));
