import * as z from '../../util/zod.ts';
import { pageQuery } from '../query.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { isoDateTime, page } from '../schemas/common.ts';

/** One entry of the admin audit log (docs/audit-log.md). */
export const AuditEntryView = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      requestId: z.string(),
      at: isoDateTime(),
      actorKind: z.enum(['person', 'scim', 'grievance_handler']),
      actorId: z.described(
        z.nullable(z.string()),
        'The acting super admin; `scim` for provisioning; null on grievance handling.',
      ),
      action: z.described(z.string(), 'A stable name: `member.create`, `member.role.set`, `grievance.status.set`…'),
      targetId: z.nullable(z.string()),
      targetIds: z.array(z.string()),
      changed: z.described(z.boolean(), 'False when the request succeeded without changing anything.'),
    }),
    { id: 'AuditEntry' },
  ),
);

const filter = (description: string) =>
  z.described(z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))), description);

export const listAuditLogRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-audit-log',
    area: 'members',
    method: 'GET',
    path: `${API_PREFIX}/admin/audit-log`,
    auth: 'super_admin',
    summary:
      'The admin audit log, newest first: what super admins and the provisioning channel did. Filters combine; `from`/`to` are ISO 8601 (default: the retention period up to now). No route changes or deletes an entry.',
    query: z.strictObject({
      actorId: filter('Entries of one actor (a person id, or `scim`).'),
      action: filter('Entries of one action (`member.role.set`).'),
      targetId: filter('Entries whose first target is this id.'),
      from: filter('Entries at or after this time.'),
      to: filter('Entries at or before this time.'),
      ...pageQuery(100, 50),
    }),
    status: 200,
    response: page(AuditEntryView),
    errors: [400],
    access: { table: 'read' },
  }),
);

export const auditRoutes = [listAuditLogRoute];
