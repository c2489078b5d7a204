import { revokeSessionRoute } from '../../shared/api/routes/auth.ts';
import { revokeSession } from '../../shared/auth/sessions.ts';
import { clearSessionCookie } from '../../shared/http/cookies.ts';
import { reply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(revokeSessionRoute, async (req) => {
  const ended = await revokeSession(req.caller.userId, req.body);
  // Revoking the calling session is a sign-out: the web client's cookie goes with it.
  const cookies = ended.id === req.caller.sessionId ? [clearSessionCookie(req.secure)] : [];
  return reply(200, { status: true }, { cookies });
});
