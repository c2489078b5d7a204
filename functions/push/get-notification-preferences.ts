import { getNotificationPreferencesRoute } from '../../shared/api/routes/push.ts';
import { route } from '../../shared/http/route.ts';
import { getPushEnabled } from '../../shared/push/preferences.ts';

export const handler = route(getNotificationPreferencesRoute, async (req) => ({
  pushEnabled: await getPushEnabled(req.caller.userId),
}));
