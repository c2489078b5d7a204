import { stringify } from 'yaml';
import { asyncapiYamlRoute } from '../../shared/api/routes/system.ts';
import { rawReply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';
import { asyncapiDocument } from '../../shared/registry/asyncapi.ts';

/** Built on the first call, not at init: a cold start that serves something else pays nothing for it. */
let document: string | undefined;

export const handler = route(asyncapiYamlRoute, async () => {
  document ??= stringify(asyncapiDocument(), { aliasDuplicateObjects: false });
  return rawReply(document, 'application/yaml; charset=utf-8');
});
