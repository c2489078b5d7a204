import type { AuditDeclaration } from '../../audit/scope.ts';
import * as z from '../../util/zod.ts';
import { API_PREFIX, declared, defineRoute, type Method } from '../route-def.ts';

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

export const scimServiceProviderConfigRoute = /* @__PURE__ */ declared(() =>
  discovery(
    'get-scim-service-provider-config',
    'ServiceProviderConfig',
    'SCIM: what this service provider supports (PATCH and filters; no bulk, sort or etag).',
  ),
);
export const scimResourceTypesRoute = /* @__PURE__ */ declared(() =>
  discovery('get-scim-resource-types', 'ResourceTypes', 'SCIM: the resource types (User, Group) as a ListResponse.'),
);
export const scimSchemasRoute = /* @__PURE__ */ declared(() =>
  discovery(
    'get-scim-schemas',
    'Schemas',
    'SCIM: the schemas of User, the enterprise extension and Group as a ListResponse.',
  ),
);

/** A SCIM request's body: a JSON object, read attribute by attribute (shared/scim/user-attributes.ts). */
const resource = /* @__PURE__ */ declared(() =>
  z.looseObject({ schemas: z.optional(z.array(z.string().check(z.maxLength(200))).check(z.maxLength(10))) }),
);

/**
 * Attribute selection (RFC 7644 §3.4.2.5, §3.9), which a client may send with any request that answers
 * a resource: a Group's `members` follow it; a User is always answered whole (what SCIM allows a
 * service provider that returns its default attributes).
 */
const selection = {
  attributes: z.optional(z.string().check(z.maxLength(2000))),
  excludedAttributes: z.optional(z.string().check(z.maxLength(2000))),
};
const selectionQuery = /* @__PURE__ */ declared(() => z.strictObject(selection));

/** The list parameters (RFC 7644 §3.4.2): a filter of exact values, 1-based paging, attribute selection. */
const listQuery = /* @__PURE__ */ declared(() =>
  z.strictObject({
    filter: z.optional(z.string().check(z.maxLength(2000))),
    startIndex: z.optional(z.string().check(z.maxLength(12))),
    count: z.optional(z.string().check(z.maxLength(12))),
    ...selection,
  }),
);

const resourceRoute = <Q extends z.ZodMiniType = z.ZodMiniNever>(
  name: string,
  method: Method,
  path: string,
  summary: string,
  o: {
    status?: 200 | 201 | 204;
    body?: boolean;
    /** `listQuery` (filter, paging, selection) or `selectionQuery` (attribute selection only). */
    query?: Q;
    errors?: number[];
    writes?: boolean;
    /** Seconds: a Group's members are changed person by person (API Gateway waits 29 at most). */
    timeout?: number;
    /** A write's entry in the admin audit log (docs/audit-log.md): the provisioning channel is its actor. */
    audit?: AuditDeclaration;
  } = {},
) =>
  defineRoute({
    name,
    area: 'scim',
    method,
    path: `${SCIM_PREFIX}/${path}`,
    auth: 'public',
    summary: `SCIM: ${summary} SCIM bearer token; application/scim+json; refusals in SCIM's error body.`,
    status: o.status ?? 200,
    ...(o.body ? { body: resource } : {}),
    ...(o.query ? { query: o.query } : {}),
    raw: true,
    scim: true,
    errors: [401, ...(o.errors ?? [])],
    ...(o.writes ? { access: { table: 'write' as const } } : {}),
    ...(o.timeout ? { timeout: o.timeout } : {}),
    ...(o.audit ? { audit: o.audit } : {}),
  });

export const scimListUsersRoute = /* @__PURE__ */ declared(() =>
  resourceRoute(
    'list-scim-users',
    'GET',
    'Users',
    'provisioned members as a ListResponse; `filter` by `userName eq "…"` and/or `externalId eq "…"`; `startIndex`/`count` (at most 100).',
    { query: listQuery, errors: [400] },
  ),
);
export const scimCreateUserRoute = /* @__PURE__ */ declared(() =>
  resourceRoute(
    'create-scim-user',
    'POST',
    'Users',
    'creates a member (pending, no password), or links the member with this userName (a deleted User’s address with another externalId is a new member); 409 uniqueness when it is a User already; 400 mutability when it would deactivate a super admin or the break-glass account.',
    {
      status: 201,
      body: true,
      query: selectionQuery,
      errors: [400, 409],
      writes: true,
      audit: { action: 'scim.user.create', target: { created: 'ScimUser', createdField: 'userId' } },
    },
  ),
);
export const scimGetUserRoute = /* @__PURE__ */ declared(() =>
  resourceRoute('get-scim-user', 'GET', 'Users/{userId}', 'one User.', {
    query: selectionQuery,
    errors: [400, 404],
  }),
);
export const scimReplaceUserRoute = /* @__PURE__ */ declared(() =>
  resourceRoute(
    'replace-scim-user',
    'PUT',
    'Users/{userId}',
    'replaces the User (userName, name, title, department, manager, active, externalId); a new userName moves the sign-in address (409 uniqueness when it is another member’s).',
    {
      body: true,
      query: selectionQuery,
      errors: [400, 404, 409],
      writes: true,
      audit: { action: 'scim.user.replace', target: { params: ['userId'] } },
    },
  ),
);
export const scimPatchUserRoute = /* @__PURE__ */ declared(() =>
  resourceRoute(
    'patch-scim-user',
    'PATCH',
    'Users/{userId}',
    'add, replace or remove operations (any case), with or without path; `active` false deactivates; a new userName moves the sign-in address.',
    {
      body: true,
      query: selectionQuery,
      errors: [400, 404, 409],
      writes: true,
      audit: { action: 'scim.user.patch', target: { params: ['userId'] } },
    },
  ),
);
export const scimDeleteUserRoute = /* @__PURE__ */ declared(() =>
  resourceRoute(
    'delete-scim-user',
    'DELETE',
    'Users/{userId}',
    'deactivates the member and ends the User (a later POST with the same externalId links them again); 403 for a super admin or the break-glass account.',
    {
      status: 204,
      errors: [403, 404, 409],
      writes: true,
      audit: { action: 'scim.user.delete', target: { params: ['userId'] } },
    },
  ),
);

export const scimListGroupsRoute = /* @__PURE__ */ declared(() =>
  resourceRoute(
    'list-scim-groups',
    'GET',
    'Groups',
    'teams as Groups; `filter=displayName eq "…"`; `excludedAttributes=members`.',
    { query: listQuery, errors: [400] },
  ),
);
export const scimCreateGroupRoute = /* @__PURE__ */ declared(() =>
  resourceRoute(
    'create-scim-group',
    'POST',
    'Groups',
    'creates a team (409 uniqueness when the name is taken) with its members.',
    {
      status: 201,
      body: true,
      query: selectionQuery,
      errors: [400, 409],
      writes: true,
      audit: { action: 'scim.group.create', target: { created: 'Team' } },
      timeout: 29,
    },
  ),
);
export const scimGetGroupRoute = /* @__PURE__ */ declared(() =>
  resourceRoute('get-scim-group', 'GET', 'Groups/{groupId}', 'one Group.', {
    query: selectionQuery,
    errors: [400, 404],
  }),
);
export const scimReplaceGroupRoute = /* @__PURE__ */ declared(() =>
  resourceRoute(
    'replace-scim-group',
    'PUT',
    'Groups/{groupId}',
    'renames the team and makes its people exactly the members.',
    {
      body: true,
      query: selectionQuery,
      errors: [400, 404, 409],
      writes: true,
      audit: { action: 'scim.group.replace', target: { params: ['groupId'] } },
      timeout: 29,
    },
  ),
);
export const scimPatchGroupRoute = /* @__PURE__ */ declared(() =>
  resourceRoute(
    'patch-scim-group',
    'PATCH',
    'Groups/{groupId}',
    'displayName replaced; members added, removed or replaced (a person added to a second Group moves there).',
    {
      body: true,
      query: selectionQuery,
      errors: [400, 404, 409],
      writes: true,
      audit: { action: 'scim.group.patch', target: { params: ['groupId'] } },
      timeout: 29,
    },
  ),
);
export const scimDeleteGroupRoute = /* @__PURE__ */ declared(() =>
  resourceRoute(
    'delete-scim-group',
    'DELETE',
    'Groups/{groupId}',
    'deletes the team (its people are left without a team).',
    {
      status: 204,
      errors: [404, 409],
      writes: true,
      audit: { action: 'scim.group.delete', target: { params: ['groupId'] } },
    },
  ),
);

export const scimRoutes = [
  scimServiceProviderConfigRoute,
  scimResourceTypesRoute,
  scimSchemasRoute,
  scimListUsersRoute,
  scimCreateUserRoute,
  scimGetUserRoute,
  scimReplaceUserRoute,
  scimPatchUserRoute,
  scimDeleteUserRoute,
  scimListGroupsRoute,
  scimCreateGroupRoute,
  scimGetGroupRoute,
  scimReplaceGroupRoute,
  scimPatchGroupRoute,
  scimDeleteGroupRoute,
];
