import { docsHtml, docsSignInHtml } from '../../shared/api/docs-assets.ts';
import { docsPageRoute } from '../../shared/api/routes/system.ts';
import { rawReply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';

// Without a session, a browser gets a sign-in form (cookie session through the API) instead of JSON.
export const handler = route(docsPageRoute, async () => rawReply(docsHtml(), 'text/html; charset=utf-8'), {
  signInPage: docsSignInHtml,
});
