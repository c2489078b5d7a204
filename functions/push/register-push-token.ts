import { registerPushTokenRoute } from '../../shared/api/routes/push.ts';
import { route } from '../../shared/http/route.ts';
import { registerPushToken } from '../../shared/push/tokens.ts';

export const handler = route(registerPushTokenRoute, async (req) => {
  await registerPushToken(req.caller.userId, req.caller.tokenHash, req.body);
});
