import { signInSsoRoute } from '../../shared/api/routes/sso.ts';
import { ssoBrowserCookie } from '../../shared/http/cookies.ts';
import { reply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';
import { serviceOrigin } from '../../shared/http/service-origin.ts';
import { STATE_MINUTES, startSsoSignIn } from '../../shared/sso/start.ts';

export const handler = route(signInSsoRoute, async (req) => {
  const { url, binding } = await startSsoSignIn(req.body, serviceOrigin(req), req.callerIfSignedIn?.userId);
  // The browser that started the sign-in keeps the binding; only it can complete the callback.
  return reply(
    200,
    { url, redirect: true as const },
    { cookies: [ssoBrowserCookie(binding, STATE_MINUTES * 60, req.secure)] },
  );
});
