import * as z from '../../util/zod.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { AdminMember, Department, email, Profile, password, Role } from '../schemas/common.ts';

const M = `${API_PREFIX}/admin/members`;

export const listMembersRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-members',
    area: 'members',
    method: 'GET',
    path: M,
    auth: 'super_admin',
    summary:
      'Every account, deactivated ones included. Sent gzip-compressed when large and the client accepts it (Accept-Encoding: gzip); uncompressed when it fits the 6 MB response limit, else 406.',
    status: 200,
    response: z.array(AdminMember),
    errors: [406],
    access: { bucket: [{ prefix: 'documents/', actions: ['read'] }] },
  }),
);

export const createMemberRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'create-member',
    area: 'members',
    method: 'POST',
    path: M,
    auth: 'super_admin',
    audit: { action: 'member.create', target: { created: 'User' } },
    summary: 'Creates a login and a profile (pending until the first sign-in). The password is not e-mailed.',
    body: z.strictObject({
      name: z
        .string()
        .check(z.maxLength(120, 'must be at most 120 characters'))
        .check(z.refine((s) => s.trim().length > 0, 'must not be empty')),
      email: email(),
      password: password(200),
      title: z.optional(z.string().check(z.maxLength(120, 'must be at most 120 characters'))),
      managerId: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
      department: z.optional(Department),
      teamId: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
      role: z.optional(Role),
    }),
    idempotent: true,
    status: 201,
    response: Profile,
    errors: [400, 409],
    access: { table: 'write' },
  }),
);

export const setMemberStatusRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'set-member-status',
    area: 'members',
    method: 'PATCH',
    path: `${M}/{userId}/status`,
    auth: 'super_admin',
    audit: { action: 'member.status.set', target: { params: ['userId'] } },
    summary:
      'Activates or deactivates; deactivating revokes every session of the person. 409 while the person is being erased.',
    body: z.strictObject({ status: z.enum(['active', 'deactivated']) }),
    status: 200,
    response: Profile,
    errors: [400, 404, 409],
    access: { table: 'write' },
  }),
);

export const setMemberPasswordRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'set-member-password',
    area: 'members',
    method: 'PATCH',
    path: `${M}/{userId}/password`,
    auth: 'super_admin',
    audit: { action: 'member.password.set', target: { params: ['userId'] } },
    summary: "Sets a password and signs the person out everywhere (unless it is the caller's own).",
    body: z.strictObject({ password: password(128) }),
    status: 200,
    response: AdminMember,
    // 409: the person's erasure started (a state the specification does not know; issue 33).
    errors: [400, 404, 409],
    access: { table: 'write' },
  }),
);

export const setMemberRoleRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'set-member-role',
    area: 'members',
    method: 'PATCH',
    path: `${M}/{userId}/role`,
    auth: 'super_admin',
    audit: { action: 'member.role.set', target: { params: ['userId'] } },
    summary: 'Changes the role; takes effect at once on existing sessions.',
    body: z.strictObject({ role: Role }),
    status: 200,
    response: Profile,
    errors: [400, 404],
    access: { table: 'write' },
  }),
);

export const setMemberFeaturedRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'set-member-featured',
    area: 'members',
    method: 'PATCH',
    path: `${M}/{userId}/featured`,
    auth: 'super_admin',
    audit: { action: 'member.featured.set', target: { params: ['userId'] } },
    summary: 'Pins a person to Top Contributors with a note, or unpins them.',
    body: z.strictObject({
      featured: z.boolean(),
      note: z.optional(z.string().check(z.maxLength(120, 'must be at most 120 characters'))),
    }),
    status: 200,
    response: Profile,
    errors: [400, 404],
    access: { table: 'write' },
  }),
);

export const memberRoutes = [
  listMembersRoute,
  createMemberRoute,
  setMemberStatusRoute,
  setMemberPasswordRoute,
  setMemberRoleRoute,
  setMemberFeaturedRoute,
];
