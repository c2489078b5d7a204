import { scimResourceTypesRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { listResponse, resourceTypes } from '../../shared/scim/discovery.ts';

export const handler = scimRoute(scimResourceTypesRoute, async (_req, base) => listResponse(resourceTypes(base)));
