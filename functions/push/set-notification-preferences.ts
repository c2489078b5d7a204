import { setNotificationPreferencesRoute } from '../../shared/api/routes/push.ts';
import { route } from '../../shared/http/route.ts';
import { setPushEnabled } from '../../shared/push/preferences.ts';

export const handler = route(setNotificationPreferencesRoute, async (req) => {
  await setPushEnabled(req.caller.userId, req.body.pushEnabled);
});
