import { signOutRoute } from '../../shared/api/routes/auth.ts';
import { endSession } from '../../shared/auth/sessions.ts';
import { clearSessionCookie } from '../../shared/http/cookies.ts';
import { reply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(signOutRoute, async (req) => {
  await endSession(req.caller.tokenHash);
  return reply(200, { success: true }, { cookies: [clearSessionCookie(req.secure)] });
});
