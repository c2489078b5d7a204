import { API_PREFIX, defineRoute } from '../route-def.ts';

/** SCIM 2.0 (RFC 7643/7644) for Entra ID and Okta provisioning (docs/scim.md); the SCIM token, not a session. */
export const SCIM_PREFIX = `${API_PREFIX}/scim/v2`;

const discovery = (name: string, path: string, summary: string) =>
  defineRoute({
    name,
    area: 'scim',
    method: 'GET',
    path: `${SCIM_PREFIX}/${path}`,
    auth: 'public',
    summary: `${summary} Needs the SCIM bearer token (401 in SCIM's error body without it); answers application/scim+json.`,
    status: 200,
    raw: true,
    scim: true,
    errors: [401],
  });

export const scimServiceProviderConfigRoute = discovery(
  'get-scim-service-provider-config',
  'ServiceProviderConfig',
  'SCIM: what this service provider supports (PATCH and filters; no bulk, sort or etag).',
);
export const scimResourceTypesRoute = discovery(
  'get-scim-resource-types',
  'ResourceTypes',
  'SCIM: the resource types (User, Group) as a ListResponse.',
);
export const scimSchemasRoute = discovery(
  'get-scim-schemas',
  'Schemas',
  'SCIM: the schemas of User, the enterprise extension and Group as a ListResponse.',
);

export const scimRoutes = [scimServiceProviderConfigRoute, scimResourceTypesRoute, scimSchemasRoute];
