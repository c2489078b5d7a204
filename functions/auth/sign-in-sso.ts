import { signInSsoRoute } from '../../shared/api/routes/sso.ts';
import { route } from '../../shared/http/route.ts';
import { serviceOrigin } from '../../shared/http/service-origin.ts';
import { startSsoSignIn } from '../../shared/sso/start.ts';

export const handler = route(signInSsoRoute, async (req) => {
  const { url } = await startSsoSignIn(req.body, serviceOrigin(req));
  return { url, redirect: true as const };
});
