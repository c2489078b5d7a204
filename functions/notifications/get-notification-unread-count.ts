import { unreadNotificationCountRoute } from '../../shared/api/routes/notifications.ts';
import { route } from '../../shared/http/route.ts';
import { unreadCount } from '../../shared/notifications/notifications.ts';

export const handler = route(unreadNotificationCountRoute, async (req) => ({
  count: await unreadCount(req.caller.userId),
}));
