import { stringify } from 'yaml';
import { openapiYamlRoute } from '../../shared/api/routes/system.ts';
import { rawReply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';
import { openapiDocument } from '../../shared/registry/openapi.ts';

export const handler = route(openapiYamlRoute, async () =>
  rawReply(stringify(openapiDocument(), { aliasDuplicateObjects: false }), 'application/yaml; charset=utf-8'),
);
