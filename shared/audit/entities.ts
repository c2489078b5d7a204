import { type EntityItem, entity, shape } from '../db/entity.ts';

/**
 * The admin audit log (docs/audit-log.md): one entry per action of a super admin or of the
 * provisioning channel (SCIM), written in the same transaction as the action (shared/audit/scope.ts).
 */

/** Who acted: a person (a super admin), the provisioning channel, or, on grievance handling, nobody named. */
export type AuditActorKind = 'person' | 'scim' | 'grievance_handler';

export type AuditEntryFields = {
  /** The request that acted (API Gateway's request id): one entry per request. */
  requestId: string;
  /** When the request arrived (ISO 8601). */
  at: string;
  /** `at`'s month (`2026-11`): the time partition. */
  month: string;
  actorKind: AuditActorKind;
  /** The acting person's id; `scim` for the provisioning channel; absent on grievance handling. */
  actorId?: string;
  /** A stable name: `member.create`, `member.role.set`, `grievance.status.set`… */
  action: string;
  /** The first target (a person, a team, a post, a grievance, an export…); null when the action has none. */
  targetId: string | null;
  /** Every target, the first one included. */
  targetIds: string[];
  /** False when the request succeeded without changing anything (recorded on its own: docs/audit-log.md). */
  changed: boolean;
  /** When DynamoDB's TTL erases the entry (epoch seconds): `at` plus the retention (AUDIT_RETENTION_DAYS). */
  ttl: number;
  /**
   * Grievance handling: kept out of the change feed like the channel's own items, and naming nobody
   * (table-definition.ts, ANON_ATTRIBUTE).
   */
  anon?: boolean;
};

/**
 * One entry of the admin audit log, in its month's partition by time; also by actor, by target and by
 * action (per month), each newest first. No route changes or deletes an entry: they leave by TTL, and
 * erasure only replaces an erased person's id with the erasure's opaque id.
 */
export const AuditEntry = entity({
  name: 'AuditEntry',
  fields: shape<AuditEntryFields>(),
  key: { pk: ['AUDIT', 'month'], sk: ['at', 'requestId'] },
  indexes: {
    /** An actor's entries (a person, or `scim`). */
    byActor: {
      index: 'gsi1',
      pk: ['AUDIT_ACTOR', 'actorId'],
      sk: ['at', 'requestId'],
      when: (e) => typeof e.actorId === 'string',
    },
    /** The entries about one target (its first). */
    byTarget: {
      index: 'gsi2',
      pk: ['AUDIT_TARGET', 'targetId'],
      sk: ['at', 'requestId'],
      when: (e) => typeof e.targetId === 'string',
    },
    /** One action's entries, a partition per month. */
    byAction: { index: 'gsi3', pk: ['AUDIT_ACTION', 'action', 'month'], sk: ['at', 'requestId'] },
  },
});
export type AuditEntryItem = EntityItem<typeof AuditEntry>;
