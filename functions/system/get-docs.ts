import { docsHtml, docsSignInHtml } from '../../shared/api/docs-assets.ts';
import { docsPage } from '../../shared/api/routes/system.ts';
import { rawReply } from '../../shared/http/reply.ts';
import { route } from '../../shared/http/route.ts';

// Without a session, a browser gets a sign-in form (cookie session through the API) instead of JSON.
export const handler = route(docsPage, async () => rawReply(docsHtml(), 'text/html; charset=utf-8'), {
  signInPage: docsSignInHtml,
});
