/**
 * SCIM's discovery resources (RFC 7643 §5–7, RFC 7644 §4): what this service provider supports, its
 * resource types and their schemas. Static; `base` is the SCIM root URL for `meta.location`.
 */
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
/** The most resources one list answer carries (`count` above it is read as it). */
export const MAX_RESULTS = 100;

const attr = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export function serviceProviderConfig(base: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: 'docs/scim.md',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'The SCIM token of this deployment, in Authorization: Bearer <token>.',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string) {
  return [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A member of the company (an account and its profile).',
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'A team; a person is on one team at most.',
      schema: GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
    },
  ];
}

export function schemas(base: string) {
  const schema = (id: string, name: string, description: string, attributes: unknown[]) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id,
    name,
    description,
    attributes,
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${id}` },
  });
  return [
    schema(USER_SCHEMA, 'User', 'A member of the company.', [
      attr('userName', 'string', { required: true, uniqueness: 'server' }),
      attr('name', 'complex', {
        subAttributes: [attr('givenName', 'string'), attr('familyName', 'string'), attr('formatted', 'string')],
      }),
      attr('displayName', 'string'),
      attr('title', 'string'),
      attr('active', 'boolean'),
      attr('externalId', 'string', { caseExact: true }),
      attr('emails', 'complex', {
        multiValued: true,
        subAttributes: [attr('value', 'string'), attr('type', 'string'), attr('primary', 'boolean')],
      }),
    ]),
    schema(ENTERPRISE_USER_SCHEMA, 'EnterpriseUser', 'The manager and department of a member.', [
      attr('department', 'string'),
      attr('manager', 'complex', { subAttributes: [attr('value', 'string')] }),
    ]),
    schema(GROUP_SCHEMA, 'Group', 'A team.', [
      attr('displayName', 'string', { required: true }),
      attr('externalId', 'string', { caseExact: true }),
      attr('members', 'complex', {
        multiValued: true,
        subAttributes: [attr('value', 'string', { mutability: 'immutable' }), attr('display', 'string')],
      }),
    ]),
  ];
}

/** A whole list as SCIM's ListResponse (RFC 7644 §3.4.2). */
export const listResponse = (resources: unknown[]) => ({
  schemas: [LIST_RESPONSE_SCHEMA],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});

/** A page of a list (RFC 7644 §3.4.2.4): `totalResults` of the whole list, the page from `startIndex`. */
export const listPage = (resources: unknown[], totalResults: number, startIndex: number) => ({
  schemas: [LIST_RESPONSE_SCHEMA],
  totalResults,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});
