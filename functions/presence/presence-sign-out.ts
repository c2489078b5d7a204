import { presenceSignOutRoute } from '../../shared/api/routes/presence.ts';
import { route } from '../../shared/http/route.ts';
import { signOutPresence } from '../../shared/presence/heartbeats.ts';

export const handler = route(presenceSignOutRoute, async (req) => {
  await signOutPresence(req.caller.userId, req.caller.sessionId);
});
