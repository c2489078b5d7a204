import { asyncapiJsonRoute } from '../../shared/api/routes/system.ts';
import { rawReply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';
import { asyncapiDocument } from '../../shared/registry/asyncapi.ts';

/** Built on the first call, not at init: a cold start that serves something else pays nothing for it. */
let document: string | undefined;

export const handler = route(asyncapiJsonRoute, async () => {
  document ??= JSON.stringify(asyncapiDocument());
  return rawReply(document, 'application/json; charset=utf-8');
});
