import { env } from '../config/env.ts';
import { decodeCursor, encodeCursor } from '../db/cursor.ts';
import { type QueryOptions, queryBudgeted } from '../db/table.ts';
import { invalid } from '../errors.ts';
import { AuditEntry, type AuditEntryItem } from './entities.ts';

/** What `GET /admin/audit-log` filters by (docs/audit-log.md); every filter optional. */
export interface AuditLogQuery {
  actorId?: string;
  action?: string;
  targetId?: string;
  /** ISO 8601 bounds on the entry's time, inclusive. */
  from?: string;
  to?: string;
  cursor?: string;
  limit: number;
}

/** An entry as the API answers it. */
export interface AuditEntryView {
  requestId: string;
  at: string;
  actorKind: AuditEntryItem['actorKind'];
  actorId: string | null;
  action: string;
  targetId: string | null;
  targetIds: string[];
  changed: boolean;
}

export const auditEntryView = (e: AuditEntryItem): AuditEntryView => ({
  requestId: e.requestId,
  at: e.at,
  actorKind: e.actorKind,
  actorId: e.actorId ?? null,
  action: e.action,
  targetId: e.targetId,
  targetIds: e.targetIds,
  changed: e.changed,
});

/** Items a page may evaluate for each it answers when a second filter applies (a page stays bounded). */
const BUDGET_PER_ITEM = 5;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The most month partitions one list walks (docs/audit-log.md: the 25 months of the default retention). */
const MAX_MONTHS = 25;
/** How far past the server's clock a `to` may be (a client's clock a little ahead of ours). */
const TO_SKEW_MS = 60_000;

/** The first instant of the month `n` months before `at`'s (UTC). */
function monthsBack(at: string, n: number): string {
  const d = new Date(`${at.slice(0, 7)}-01T00:00:00.000Z`);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString();
}

/** The months from `to`'s down to `from`'s (`2026-11`, `2026-10`…), newest first. */
function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  const d = new Date(`${to.slice(0, 7)}-01T00:00:00.000Z`);
  const last = from.slice(0, 7);
  while (d.toISOString().slice(0, 7) >= last) {
    months.push(d.toISOString().slice(0, 7));
    d.setUTCMonth(d.getUTCMonth() - 1);
  }
  return months;
}

const iso = (name: string, value: string | undefined, fallback: string) => {
  if (value === undefined) return fallback;
  const t = Date.parse(value);
  if (!Number.isFinite(t)) throw invalid([`${name}: must be an ISO 8601 date-time`]);
  return new Date(t).toISOString();
};

/**
 * One page of the audit log, newest first. The most selective filter picks the partitions read: a
 * target's index, else an actor's, else an action's month partitions, else the log's month partitions
 * (each month one partition, so none grows without bound, and an empty month costs one request); the
 * other filters apply to what those give, at most BUDGET_PER_ITEM × `limit` items evaluated a page (a
 * page may then hold fewer than `limit` items and still have a `nextCursor`).
 */
export async function listAuditLog(q: AuditLogQuery): Promise<{ items: AuditEntryView[]; nextCursor: string | null }> {
  const nowMs = Date.now();
  const to = iso('to', q.to, new Date(nowMs).toISOString());
  // The log holds nothing later than now: a later `to` would only make the month walk longer.
  if (Date.parse(to) > nowMs + TO_SKEW_MS) throw invalid(['to: must not be later than now']);
  // Nothing older than the retention is answered (DynamoDB's TTL erases late; the month walk stays bounded).
  const kept = new Date(nowMs - env.auditRetentionDays * DAY_MS).toISOString();
  // Without `from`, the window is the retention's, at most MAX_MONTHS month partitions back from `to`.
  const earliest = monthsBack(to, MAX_MONTHS - 1);
  const asked = iso('from', q.from, kept > earliest ? kept : earliest);
  if (asked > to) throw invalid(['from: must not be after to']);
  if (asked < earliest) throw invalid([`from: the window from from to to spans at most ${MAX_MONTHS} months`]);
  const from = asked < kept ? kept : asked;
  if (from > to) return { items: [], nextCursor: null };
  const partitions: QueryOptions[] = q.targetId
    ? [AuditEntry.queryOptions({ index: 'byTarget', key: { targetId: q.targetId } })]
    : q.actorId
      ? [AuditEntry.queryOptions({ index: 'byActor', key: { actorId: q.actorId } })]
      : q.action
        ? monthsBetween(from, to).map((month) =>
            AuditEntry.queryOptions({ index: 'byAction', key: { action: q.action, month } }),
          )
        : monthsBetween(from, to).map((month) => AuditEntry.queryOptions({ key: { month } }));
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions: string[] = [];
  const also = (field: 'actorId' | 'action' | 'targetId', value: string | undefined) => {
    if (value === undefined) return;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    conditions.push(`#${field} = :${field}`);
  };
  if (q.targetId) also('actorId', q.actorId);
  if (q.targetId || q.actorId) also('action', q.action);
  const filter = conditions.length
    ? { FilterExpression: conditions.join(' AND '), ExpressionAttributeNames: names, ExpressionAttributeValues: values }
    : undefined;
  // The cursor names its partition (not its position in the list: a default `to` moves with the clock).
  const scope = `audit|${q.targetId ?? ''}|${q.actorId ?? ''}|${q.action ?? ''}|${q.from ?? ''}|${q.to ?? ''}`;
  const at = decodeCursor(scope, q.cursor) as { p: string; k: Record<string, unknown> | null } | undefined;
  let p = at ? partitions.findIndex((o) => o.pk === at.p) : 0;
  if (p < 0) throw invalid(['cursor is not valid for this list']);
  let start = at?.k ?? undefined;
  const items: AuditEntryItem[] = [];
  // A second filter applies only with a target or an actor, whose entries are one partition: the page
  // evaluates at most BUDGET_PER_ITEM × `limit` of them. The month partitions are read unfiltered.
  while (p < partitions.length && items.length < q.limit) {
    // With a filter, a first step of about twice the page (a filter most entries pass fills the page
    // at once, evaluating and sending no more), then the rest of the page's budget.
    let left = filter ? (q.limit - items.length) * BUDGET_PER_ITEM : q.limit - items.length;
    let step = filter ? Math.min(left, 2 * (q.limit - items.length) + 1) : left;
    let next: Record<string, unknown> | undefined;
    for (;;) {
      const out = await queryBudgeted<AuditEntryItem>({
        ...partitions[p],
        // `at#requestId` sort keys: from `from` up to anything at `to` (`~` sorts after the `#`).
        skBetween: [from, `${to}~`],
        skPrefix: undefined,
        forward: false,
        filter,
        want: q.limit - items.length,
        budget: step,
        start,
      });
      items.push(...out.items);
      next = out.next;
      left -= step;
      step = left;
      if (!next || items.length >= q.limit || left <= 0) break;
      start = next;
    }
    if (next) {
      start = next;
      break;
    }
    p += 1;
    start = undefined;
  }
  const more = p < partitions.length;
  return {
    items: items.map(auditEntryView),
    nextCursor: more ? encodeCursor(scope, { p: partitions[p].pk, k: start ?? null }) : null,
  };
}
