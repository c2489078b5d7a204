import { listNotificationsRoute } from '../../shared/api/routes/notifications.ts';
import { route } from '../../shared/http/route.ts';
import { listNotifications } from '../../shared/notifications/notifications.ts';

export const handler = route(listNotificationsRoute, async (req) =>
  listNotifications(req.caller.userId, req.query.limit),
);
