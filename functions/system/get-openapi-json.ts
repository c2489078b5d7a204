import { openapiJsonRoute } from '../../shared/api/routes/system.ts';
import { rawReply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';
import { openapiDocument } from '../../shared/registry/openapi.ts';

export const handler = route(openapiJsonRoute, async () =>
  rawReply(JSON.stringify(openapiDocument()), 'application/json; charset=utf-8'),
);
