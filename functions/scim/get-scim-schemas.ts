import { scimSchemasRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { listResponse, schemas } from '../../shared/scim/discovery.ts';

export const handler = scimRoute(scimSchemasRoute, async (_req, base) => listResponse(schemas(base)));
