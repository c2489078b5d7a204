import { changePassword, toSessionUser } from '../../shared/access/accounts.ts';
import { changePasswordRoute } from '../../shared/api/routes/auth.ts';
import { sessionCookie } from '../../shared/http/cookies.ts';
import { reply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(changePasswordRoute, async (req) => {
  const { token, user } = await changePassword(req.caller, req.body.currentPassword, req.body.newPassword, {
    revokeOthers: req.body.revokeOtherSessions === true,
    receivedAt: req.receivedAt,
    userAgent: req.userAgent,
  });
  // A rotated session: `set-auth-token` replaces the stored token, and the web client's
  // cookie follows when the request came with it.
  const rotated = token
    ? { headers: { 'set-auth-token': token }, cookies: req.via === 'cookie' ? [sessionCookie(token, req.secure)] : [] }
    : {};
  return reply(200, { token, user: toSessionUser(user) }, rotated);
});
