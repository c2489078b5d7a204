import { signIn, toSessionUser } from '../../shared/access/accounts.ts';
import { signInRoute } from '../../shared/api/routes/auth.ts';
import { sessionCookie } from '../../shared/http/cookies.ts';
import { reply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(signInRoute, async (req) => {
  const { token, user } = await signIn(req.body.email, req.body.password, req.userAgent, req.receivedAt);
  return reply(
    200,
    { redirect: false, token, user: toSessionUser(user) },
    { headers: { 'set-auth-token': token }, cookies: [sessionCookie(token, req.secure)] },
  );
});
