import { revokeOtherSessionsRoute } from '../../shared/api/routes/auth.ts';
import { endSessions } from '../../shared/auth/sessions.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(revokeOtherSessionsRoute, async (req) => {
  await endSessions(req.caller.userId, req.caller.tokenHash);
  return { status: true as const };
});
