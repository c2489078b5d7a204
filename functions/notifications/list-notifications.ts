import { listNotifications } from '../../shared/api/routes/notifications.ts';
import { route } from '../../shared/http/route.ts';
import { listNotifications as list } from '../../shared/notifications/notifications.ts';

export const handler = route(listNotifications, async (req) => list(req.caller.userId, req.query.limit));
