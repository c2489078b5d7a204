import { getNotificationPreferences } from '../../shared/api/routes/push.ts';
import { route } from '../../shared/http/route.ts';
import { getPushEnabled } from '../../shared/push/preferences.ts';

export const handler = route(getNotificationPreferences, async (req) => ({
  pushEnabled: await getPushEnabled(req.caller.userId),
}));
