import { ssoCallbackRoute } from '../../shared/api/routes/sso.ts';
import { sessionCookie } from '../../shared/http/cookies.ts';
import { HttpResponse, redirect } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';
import { completeSsoSignIn } from '../../shared/sso/callback.ts';

export const handler = route(ssoCallbackRoute, async (req) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query)) if (typeof v === 'string') params.set(k, v);
  const outcome = await completeSsoSignIn(req.params.providerId ?? '', params, req.userAgent);
  if (!outcome.token) return redirect(outcome.redirectTo);
  // The same session the e-mail sign-in starts: the web cookie, and the token for bearer clients.
  return new HttpResponse(302, undefined, { location: outcome.redirectTo, 'set-auth-token': outcome.token }, [
    sessionCookie(outcome.token, req.secure),
  ]);
});
