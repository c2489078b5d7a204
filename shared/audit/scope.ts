import { env } from '../config/env.ts';
import type { TransactItem } from '../db/table.ts';
import { withWriteCompanion, write } from '../db/table.ts';
import { AuditEntry, type AuditEntryFields } from './entities.ts';

/**
 * What a route declares about the audit log (the route table's `audit`; docs/audit-log.md): the
 * action's stable name and its target.
 */
export interface AuditDeclaration {
  /** `<object>.<verb>` or `<object>.<field>.<verb>`: `member.create`, `member.role.set`. */
  action: string;
  /**
   * The target: path parameters by name (their values, in this order), and/or `created`, the entity
   * whose new item the request creates (its `id`; the entry then rides on the write that creates it),
   * or the first of several kinds it may create (create-post: a post, or a scheduled post).
   */
  target: { params?: readonly string[]; created?: string | readonly string[]; createdField?: string };
  /** Only requests whose validated body meets this are actions to record (create-post: an announcement). */
  when?: (body: any) => boolean;
  /**
   * Only a created item that meets this is an action to record: the entry follows what was stored, not
   * what was asked (a member asking for an announcement gets a plain post, which records nothing).
   */
  createdWhen?: (item: Record<string, unknown>) => boolean;
  /**
   * The route itself admits callers who are not super admins to this admin action (a survey owner
   * managing surveys): theirs are recorded too. Without it only a super admin is ever an actor.
   */
  delegated?: boolean;
}

/** The request an entry records. */
export interface AuditedRequest {
  requestId: string;
  /** When it arrived (epoch ms). */
  receivedAt: number;
  /** A person's id, `scim`, or null for grievance handling (recorded without anyone's id). */
  actorId: string | null;
  params: Record<string, string | undefined>;
}

const DAY_SECONDS = 24 * 60 * 60;

/** The entry's fields for a request, with the target it has so far. */
function entryFields(d: AuditDeclaration, r: AuditedRequest, created: string | undefined, changed: boolean) {
  const at = new Date(r.receivedAt).toISOString();
  const targetIds = [
    ...new Set([
      ...(d.target.params ?? []).map((p) => r.params[p]).filter((v): v is string => !!v),
      ...(created ? [created] : []),
    ]),
  ];
  const fields: AuditEntryFields = {
    requestId: r.requestId,
    at,
    month: at.slice(0, 7),
    actorKind: r.actorId === null ? 'grievance_handler' : r.actorId === 'scim' ? 'scim' : 'person',
    ...(r.actorId === null ? { anon: true } : { actorId: r.actorId }),
    action: d.action,
    targetId: targetIds[0] ?? null,
    targetIds,
    changed,
    ttl: Math.floor(r.receivedAt / 1000) + env.auditRetentionDays * DAY_SECONDS,
  };
  return fields;
}

/** The item of a kind in `entities` this write creates (a Put), if it creates one. */
function createdIn(
  items: readonly TransactItem[],
  entities: string | readonly string[],
  field = 'id',
): Record<string, unknown> | undefined {
  const kinds = typeof entities === 'string' ? [entities] : entities;
  for (const it of items) {
    const item = it.Put?.Item as Record<string, unknown> | undefined;
    if (item && kinds.includes(item.entity as string) && typeof item[field] === 'string') return item;
  }
  return undefined;
}

/**
 * Runs a request's work with its audit entry riding on the work's first successful table write, in the
 * same transaction (shared/db/table.ts, withWriteCompanion), conditioned on its key being new: the key
 * is the request's time and id, so a retried attempt of the same write carries it again and it is
 * still written once. With a `created` target, the entry waits for the write that creates that item.
 * A request whose work succeeds without writing anything records its entry on its own afterwards,
 * marked `changed: false` (docs/audit-log.md), as does one whose writes never carried it (a created
 * target that was not created: `changed` true, no target); a request that fails before any write records nothing.
 */
export async function audited<T>(
  d: AuditDeclaration,
  r: AuditedRequest,
  work: () => Promise<T>,
  succeeded: (result: T) => boolean = () => true,
): Promise<T> {
  let done = false;
  let wrote = false;
  // The created item was not what the declaration records (createdWhen): nothing is recorded.
  let declined = false;
  let accepted = false;
  const companion = {
    itemFor: (items: readonly TransactItem[]) => {
      wrote = true;
      if (declined) return undefined;
      const field = d.target.createdField ?? 'id';
      const created = d.target.created ? createdIn(items, d.target.created, field) : undefined;
      if (d.target.created && !created) return undefined;
      if (created && d.createdWhen && !d.createdWhen(created)) {
        declined = true;
        return undefined;
      }
      if (created && d.createdWhen) accepted = true;
      return AuditEntry.create(entryFields(d, r, created?.[field] as string | undefined, true));
    },
    written: () => {
      done = true;
    },
    get done() {
      return done;
    },
  };
  let result: T;
  try {
    result = await withWriteCompanion(companion, work);
  } catch (err) {
    const refusal = recordedRefusal(err);
    // A refusal worth recording (SCIM reaching for an administrator): `<action>.refused`, nothing changed.
    if (refusal && !done) await record(AuditEntry.create(entryFields(refused(d), r, refusal.targetId, false)));
    throw err;
  }
  // With createdWhen, only a created item that met it is recorded.
  if (!done && !declined && (!d.createdWhen || accepted) && succeeded(result)) {
    // `changed` stays true when the work wrote, though not the item its declaration waited for.
    await record(AuditEntry.create(entryFields(d, r, undefined, wrote)));
  }
  return result;
}

/** An entry written on its own; one already there is an earlier attempt of this request's. */
const record = (item: TransactItem) =>
  write(item).catch((err: unknown) => {
    if ((err as { name?: string })?.name !== 'ConditionalCheckFailedException') throw err;
  });

/**
 * A refusal the domain marks for the log (`recordRefusal`, e.g. shared/scim/errors.ts), with the
 * target it protected; any other error records nothing.
 */
function recordedRefusal(err: unknown): { targetId: string } | undefined {
  const r = (err as { recordRefusal?: { targetId?: unknown } } | null)?.recordRefusal;
  return r && typeof r.targetId === 'string' ? { targetId: r.targetId } : undefined;
}

const refused = (d: AuditDeclaration): AuditDeclaration => ({ ...d, action: `${d.action}.refused` });
