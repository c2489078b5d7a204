import { ssoCallbackRoute } from '../../shared/api/routes/sso.ts';
import { clearSsoBrowserCookie, requestCookie, SSO_BROWSER_COOKIE, sessionCookie } from '../../shared/http/cookies.ts';
import { HttpResponse } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';
import { completeSsoSignIn } from '../../shared/sso/callback.ts';

export const handler = route(ssoCallbackRoute, async (req) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query)) if (typeof v === 'string') params.set(k, v);
  const binding = requestCookie(req.event, SSO_BROWSER_COOKIE);
  const outcome = await completeSsoSignIn(req.params.providerId ?? '', params, req.userAgent, binding);
  // The binding is spent either way.
  const cookies = [clearSsoBrowserCookie(req.secure)];
  if (!outcome.token) return new HttpResponse(302, undefined, { location: outcome.redirectTo }, cookies);
  // The same session the e-mail sign-in starts: the web cookie, and the token for bearer clients.
  return new HttpResponse(302, undefined, { location: outcome.redirectTo, 'set-auth-token': outcome.token }, [
    sessionCookie(outcome.token, req.secure),
    ...cookies,
  ]);
});
