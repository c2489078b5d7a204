import { readNotifications } from '../../shared/api/routes/notifications.ts';
import { route } from '../../shared/http/route.ts';
import { markRead } from '../../shared/notifications/notifications.ts';

export const handler = route(readNotifications, async (req) => {
  await markRead(req.caller.userId, req.body.id);
});
