import { registerPushToken } from '../../shared/api/routes/push.ts';
import { route } from '../../shared/http/route.ts';
import { registerPushToken as register } from '../../shared/push/tokens.ts';

export const handler = route(registerPushToken, async (req) => {
  await register(req.caller.userId, req.body);
});
