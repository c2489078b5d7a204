import { readNotificationsRoute } from '../../shared/api/routes/notifications.ts';
import { route } from '../../shared/http/route.ts';
import { markRead } from '../../shared/notifications/notifications.ts';

export const handler = route(readNotificationsRoute, async (req) => {
  await markRead(req.caller.userId, req.body.id);
});
