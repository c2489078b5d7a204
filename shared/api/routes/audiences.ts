import { Audience } from '../../audiences/entities.ts';
import { checkRule, RULE_LIMITS } from '../../audiences/rule.ts';
import { Department, Role } from '../../people/profile-fields.ts';
import * as z from '../../util/zod.ts';
import { pageQuery } from '../query.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { isoDateTime, nonBlank } from '../schemas/common.ts';
import { DirectoryEntry } from './profiles.ts';

const A = `${API_PREFIX}/admin/audiences`;

const ref = { $ref: '#/$defs/AudienceRule' };
const kind = (name: string, schema: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: [name],
  additionalProperties: false,
  properties: { [name]: schema, ...extra },
});
const id = { type: 'string', minLength: 1, maxLength: RULE_LIMITS.id };

/**
 * An audience's rule (docs/audiences.md): exactly one kind per node. Checked by the audiences area
 * (shared/audiences/rule.ts: shape, depth, nodes, named people), each problem a field error naming
 * where it is in the rule; described to clients as the recursive `oneOf` below.
 */
export const AudienceRule = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.unknown().check((ctx) => {
      for (const p of checkRule(ctx.value).problems)
        ctx.issues.push({ code: 'custom', message: p.message, input: ctx.value, path: p.path });
    }),
    {
      id: 'AudienceRule',
      description: `One node of an audience's rule: exactly one kind. all/any/not join rules (AND, OR, NOT); the others select by what the company controls (docs/audiences.md). At most ${RULE_LIMITS.depth} levels, ${RULE_LIMITS.nodes} nodes and ${RULE_LIMITS.userIds} named people in all. Deactivated people are never selected.`,
      oneOf: [
        kind('all', { type: 'array', minItems: 1, items: ref }),
        kind('any', { type: 'array', minItems: 1, items: ref }),
        kind('not', ref),
        kind('department', { type: 'string', enum: Department.options.filter((d) => d !== '') }),
        kind('teamId', id),
        kind('managerId', id, {
          chain: { type: 'boolean', description: 'true: everybody below the manager, not only their reports' },
        }),
        kind('role', { type: 'string', enum: [...Role.options] }),
        kind('location', {
          type: 'string',
          minLength: 1,
          maxLength: RULE_LIMITS.location,
          description: 'exact; the value a super admin set (docs/audiences.md)',
        }),
        kind('userIds', { type: 'array', maxItems: RULE_LIMITS.userIds, items: id }),
        kind('scimGroup', {
          type: 'string',
          minLength: 1,
          maxLength: RULE_LIMITS.scimGroup,
          description: "a SCIM Group's displayName (a team, docs/scim.md), case-insensitive",
        }),
      ],
    },
  ),
);

/** The optional `audience` a post or an event is created for: a named audience or a rule, frozen or dynamic.
 * One declaration so posts and events accept the same choice; each says what `dynamic` and the field mean. */
export const audienceChoice = (dynamicMeaning: string, description: string) =>
  z.described(
    z.nullish(
      z.strictObject({
        id: z.described(
          z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
          'A named audience (docs/audiences.md)',
        ),
        rule: z.optional(AudienceRule),
        dynamic: z.described(z.optional(z.boolean()), dynamicMeaning),
      }),
    ),
    description,
  );

export const AudienceView = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      name: z.string(),
      rule: AudienceRule,
      count: z.described(z.number().check(z.int()), 'People it selected when it was last written (countedAt)'),
      countedAt: isoDateTime(),
      createdAt: isoDateTime(),
      updatedAt: isoDateTime(),
    }),
    { id: 'Audience' },
  ),
);

const peoplePage = () =>
  z.object({ count: z.number().check(z.int()), items: z.array(DirectoryEntry), nextCursor: z.nullable(z.string()) });

const writes = {
  table: 'write' as const,
  writes: [Audience],
  bucket: [{ prefix: 'documents/', actions: ['read' as const] }],
};
const readsRoster = { bucket: [{ prefix: 'documents/', actions: ['read' as const] }] };
/** Writes nothing but its audit entry (the route wrapper's, docs/audit-log.md). */
const auditOnly = { table: 'write' as const, writes: [], ...readsRoster };

export const listAudiencesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-audiences',
    area: 'audiences',
    method: 'GET',
    path: A,
    auth: 'super_admin',
    summary: 'Audiences by name, a page at a time.',
    query: z.strictObject({ ...pageQuery() }),
    status: 200,
    response: z.object({ items: z.array(AudienceView), nextCursor: z.nullable(z.string()) }),
    errors: [400],
  }),
);

export const createAudienceRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'create-audience',
    area: 'audiences',
    method: 'POST',
    path: A,
    auth: 'super_admin',
    audit: { action: 'audience.create', target: { created: 'Audience' } },
    summary:
      'Creates an audience: a name and a rule; answers how many people it selects now. A team, SCIM group, manager or person the rule names must exist (400).',
    body: z.strictObject({ name: nonBlank(1, 120), rule: AudienceRule }),
    idempotent: true,
    status: 201,
    response: AudienceView,
    errors: [400],
    access: writes,
  }),
);

export const previewAudienceRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'preview-audience',
    area: 'audiences',
    method: 'POST',
    path: `${A}/preview`,
    auth: 'super_admin',
    audit: { action: 'audience.preview', target: {} },
    summary: 'How many people a rule selects now, and the first 20 of them by name; stores nothing.',
    body: z.strictObject({ rule: AudienceRule }),
    status: 200,
    response: z.object({ count: z.number().check(z.int()), people: z.array(DirectoryEntry) }),
    errors: [400],
    access: auditOnly,
  }),
);

export const getAudienceRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-audience',
    area: 'audiences',
    method: 'GET',
    path: `${A}/{audienceId}`,
    auth: 'super_admin',
    summary: 'One audience, with the count of its last write.',
    status: 200,
    response: AudienceView,
    errors: [404],
  }),
);

export const updateAudienceRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'update-audience',
    area: 'audiences',
    method: 'PATCH',
    path: `${A}/{audienceId}`,
    auth: 'super_admin',
    audit: { action: 'audience.update', target: { params: ['audienceId'] } },
    summary: 'Renames an audience and/or replaces its rule; the count is recomputed.',
    body: z.strictObject({ name: z.optional(nonBlank(1, 120)), rule: z.optional(AudienceRule) }),
    status: 200,
    response: AudienceView,
    errors: [400, 404],
    access: writes,
  }),
);

export const deleteAudienceRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'delete-audience',
    area: 'audiences',
    method: 'DELETE',
    path: `${A}/{audienceId}`,
    auth: 'super_admin',
    audit: { action: 'audience.delete', target: { params: ['audienceId'] } },
    summary: 'Deletes an audience.',
    status: 204,
    errors: [404],
    access: { table: 'write', writes: [Audience] },
  }),
);

export const listAudiencePeopleRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-audience-people',
    area: 'audiences',
    method: 'GET',
    path: `${A}/{audienceId}/people`,
    auth: 'super_admin',
    summary:
      'The people the audience selects now, by name, as directory entries, a page at a time (`count`: how many in all, now).',
    query: z.strictObject({ ...pageQuery() }),
    status: 200,
    response: peoplePage(),
    errors: [400, 404],
    access: readsRoster,
  }),
);

export const audienceRoutes = [
  listAudiencesRoute,
  createAudienceRoute,
  previewAudienceRoute,
  getAudienceRoute,
  updateAudienceRoute,
  deleteAudienceRoute,
  listAudiencePeopleRoute,
];
