import { scimServiceProviderConfigRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { serviceProviderConfig } from '../../shared/scim/discovery.ts';

export const handler = scimRoute(scimServiceProviderConfigRoute, async (_req, base) => serviceProviderConfig(base));
