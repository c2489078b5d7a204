import { deletePushTokenRoute } from '../../shared/api/routes/push.ts';
import { route } from '../../shared/http/route.ts';
import { retirePushToken } from '../../shared/push/tokens.ts';

export const handler = route(deletePushTokenRoute, async (req) => {
  await retirePushToken(req.caller.userId, req.params.token);
});
