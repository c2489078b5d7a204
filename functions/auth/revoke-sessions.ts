import { revokeSessionsRoute } from '../../shared/api/routes/auth.ts';
import { endSessions } from '../../shared/auth/sessions.ts';
import { clearSessionCookie } from '../../shared/http/cookies.ts';
import { reply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(revokeSessionsRoute, async (req) => {
  await endSessions(req.caller.userId);
  return reply(200, { status: true }, { cookies: [clearSessionCookie(req.secure)] });
});
