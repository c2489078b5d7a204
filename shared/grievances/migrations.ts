import { getMany, type Item, keyString, queryAll, type TransactItem } from '../db/table.ts';
import { updateExpression, withCondition } from '../db/update-expression.ts';
import type { DataMigration } from '../migrations/migration.ts';
import { User } from '../people/entities.ts';
import { unseal } from './anonymity.ts';
import {
  Grievance,
  type GrievanceItem,
  GrievanceNotice,
  GrievanceReaderRef,
  GrievanceReply,
  type GrievanceReplyItem,
  GrievanceStatusChange,
  type GrievanceStatusChangeItem,
  GrievanceTotals,
} from './entities.ts';
import { readerOf, readerRefWrite } from './erasure-refs.ts';
import {
  applyHandling,
  configuredPeriods,
  HANDLING_FIELDS,
  type HandlingEvent,
  hasHandling,
  initialHandling,
  REMINDER_LEAD_DAYS,
} from './handling.ts';
import { handlingEntryWrites } from './handling-index.ts';
import { statusChangeMoveOf } from './legacy-keys.ts';
import { noticeAddress, openNotice, queuedNoticeWrites } from './notices.ts';
import { readMarkerKeys } from './read-state.ts';
import { raisedStats, type StatsDeltas, statsFields, statsWrites } from './stats-fields.ts';
import type { ReminderKind } from './vocabulary.ts';

const DAY_MS = 86_400_000;

/**
 * The handling record of a grievance raised before it existed, as it would be had it been there from
 * the raise: the grievance's history (moves) and handler replies are replayed through `applyHandling`
 * in the order they happened, so the deadlines, their outcomes and the statistics counters (raised,
 * status, category, acknowledgement and resolution times, deadline outcomes) come out as the live code
 * would have written them. Reminders whose time has passed are not sent after the fact, except the
 * "missed" ones, which the reminder sweep sends for what is still unmet.
 */
export function replayedHandling(
  g: GrievanceItem,
  history: GrievanceStatusChangeItem[],
  replies: GrievanceReplyItem[],
  now = new Date(),
): { grievance: GrievanceItem; stats: StatsDeltas } {
  const periods = configuredPeriods();
  let running: GrievanceItem = {
    ...g,
    status: 'open',
    resolvedAt: null,
    ...initialHandling(g.createdAt, periods),
  };
  const stats = raisedStats(g.createdAt, g.category, 'open');
  const events: { at: string; event: HandlingEvent }[] = [
    ...history
      .filter((c) => (c.move ?? statusChangeMoveOf(c.sk)) > 0)
      .map((c) => ({ at: c.createdAt, event: { kind: 'move', to: c.toStatus } as HandlingEvent })),
    ...replies
      .filter((r) => r.authorRole === 'handler')
      .map((r) => ({ at: r.createdAt, event: { kind: 'handler-reply' } as HandlingEvent })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  for (const { at, event } of events) {
    const after: GrievanceItem =
      event.kind === 'move'
        ? { ...running, status: event.to, resolvedAt: event.to === 'resolved' || event.to === 'closed' ? at : null }
        : running;
    const applied = applyHandling(running, after, event, new Date(at), periods);
    running = applied.item;
    for (const [day, fields] of applied.stats)
      for (const [field, delta] of fields) statsFields.add(stats, day, field, delta);
  }
  const soonPassed: ReminderKind[] = [];
  if (hasHandling(running)) {
    if (!running.ackAt && Date.parse(running.ackDueAt) - REMINDER_LEAD_DAYS.ack * DAY_MS < now.getTime())
      soonPassed.push('ack_soon');
    if (!running.feedbackAt && Date.parse(running.feedbackDueAt) - REMINDER_LEAD_DAYS.feedback * DAY_MS < now.getTime())
      soonPassed.push('feedback_soon');
  }
  // What is stored stays as it is; only the handling record is added.
  const grievance: GrievanceItem = {
    ...g,
    ackDueAt: running.ackDueAt,
    ackAt: running.ackAt ?? null,
    ...(running.ackOutcome ? { ackOutcome: running.ackOutcome } : {}),
    feedbackDueAt: running.feedbackDueAt,
    feedbackAt: running.feedbackAt ?? null,
    ...(running.feedbackOutcome ? { feedbackOutcome: running.feedbackOutcome } : {}),
    ...(running.resolutionCounted ? { resolutionCounted: true } : {}),
    remindersSent: soonPassed,
    handlingRev: 0,
  };
  return { grievance, stats };
}

/** The writes that give a grievance without a handling record its record, index entries and statistics. */
export async function handlingBackfillWrites(item: Item): Promise<TransactItem[]> {
  if (!Grievance.is(item)) return [];
  const g = item;
  if (hasHandling(g)) return [];
  // The grievance's partition: its history and replies, read together.
  const partition = await queryAll({ pk: Grievance.key(g).pk, consistent: true });
  const history = partition.filter(GrievanceStatusChange.is);
  const replies = partition.filter(GrievanceReply.is);
  const { grievance, stats } = replayedHandling(g, history, replies);
  const added = Object.fromEntries(
    HANDLING_FIELDS.filter((f) => grievance[f] !== undefined).map((f) => [f, grievance[f]]),
  );
  return [
    // The history and replies replayed are all there were: no move or reply since they were read.
    Grievance.updateStored(
      g,
      withCondition(
        updateExpression(added),
        'attribute_not_exists(#ackDueAt) AND #moves = :moves AND #replies = :replies',
        { '#ackDueAt': 'ackDueAt', '#moves': 'moves', '#replies': 'replyCount' },
        { ':moves': g.moves, ':replies': g.replyCount },
      ),
    ),
    ...handlingEntryWrites(null, grievance),
    ...statsWrites(stats),
  ];
}

/** Grievances raised before their handling record existed get it (CHANGELOG.md, 0.2.0). */
export const grievanceHandlingMigration: DataMigration = {
  id: '0002-grievance-handling-records',
  description:
    'Grievances raised before deadlines existed: handling record replayed from their history, deadline and reminder entries, statistics',
  entities: ['Grievance'],
  migrate: handlingBackfillWrites,
};

/** At most this many references in one transaction (DynamoDB takes 100 writes); the runner asks again. */
const REFS_PER_WRITE = 90;

/**
 * The reader references of read markers written before references existed: the marker is addressed by
 * tag(person, grievance) alone, so the only way from a grievance to its readers is to try every
 * person's tag (one batch read per 100 people). A reference is written for each marker whose reader no
 * reference names yet; the runner calls again until none is missing.
 */
export async function readerRefBackfillWrites(item: Item): Promise<TransactItem[]> {
  if (!Grievance.is(item)) return [];
  const g = item;
  const refs = await GrievanceReaderRef.queryAll({ key: { grievanceId: g.id }, consistent: true });
  const known = new Set(refs.map(readerOf).filter((id): id is string => !!id));
  const people = await User.queryAll({ index: 'members', key: {} });
  const candidates = people.map((p) => p.id).filter((id) => !known.has(id));
  const markers = await getMany(
    candidates.flatMap((id) => readMarkerKeys(id, g.id)),
    true,
  );
  return candidates
    .filter((id) => readMarkerKeys(id, g.id).some((k) => markers.has(keyString(k))))
    .slice(0, REFS_PER_WRITE)
    .map((id) => readerRefWrite(g.id, id));
}

/** Read markers from before reader references get theirs, so retention erases them (CHANGELOG.md, 0.2.0). */
export const grievanceReaderRefMigration: DataMigration = {
  id: '0003-grievance-reader-refs',
  description: 'Read markers written before reader references: a sealed reference each, so retention erases them',
  entities: ['Grievance'],
  // Each grievance tries every person's tag: a few grievances a page keep a page within seconds.
  pageSize: 10,
  migrate: readerRefBackfillWrites,
};

/** 0.1.0's names of the board totals: `s_<status>`, `c_<category>`, `sc_<status>_<category>`. */
const OLD_TOTAL = /^(s|c|sc)_(.+)$/;
const STATUS_OF = /^(open|in_review|resolved|closed)_(.+)$/;

/** The current name of a 0.1.0 board total, or null for any other attribute. */
export function currentTotalName(attribute: string): string | null {
  const m = OLD_TOTAL.exec(attribute);
  if (!m) return null;
  if (m[1] === 's') return `status_${m[2]}`;
  if (m[1] === 'c') return `category_${m[2]}`;
  const both = STATUS_OF.exec(m[2]);
  return both ? `status_${both[1]}_category_${both[2]}` : null;
}

/**
 * The board totals under their current names: each old counter is added to its new one (which the
 * current code may have moved already since the upgrade) and removed, in one update conditioned on
 * the old values read, so no raise or move between the read and the write is lost or counted twice.
 */
export function totalsRenameWrites(item: Item): TransactItem[] {
  const renames = Object.keys(item)
    .map((old) => [old, currentTotalName(old)] as const)
    .filter((pair): pair is readonly [string, string] => pair[1] !== null);
  if (renames.length === 0) return [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':zero': 0 };
  const sets: string[] = [];
  const conditions: string[] = [];
  renames.forEach(([old, now], i) => {
    names[`#o${i}`] = old;
    names[`#n${i}`] = now;
    values[`:o${i}`] = item[old];
    sets.push(`#n${i} = if_not_exists(#n${i}, :zero) + :o${i}`);
    conditions.push(`#o${i} = :o${i}`);
  });
  return [
    GrievanceTotals.updateStored(item as { pk: string; sk: string }, {
      UpdateExpression: `SET ${sets.join(', ')} REMOVE ${renames.map((_, i) => `#o${i}`).join(', ')}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  ];
}

/** The board totals' counters renamed since 0.1.0 (CHANGELOG.md, 0.2.0). */
export const grievanceTotalsNamesMigration: DataMigration = {
  id: '0004-grievance-totals-names',
  description: 'Board totals under their current names (s_/c_/sc_ became status_/category_/status_…_category_)',
  entities: ['GrievanceTotals'],
  migrate: totalsRenameWrites,
};

/**
 * The preview of a 0.2.0 grievance notification, sealed under the grievance key in the context the
 * notification module used then; null when it does not open. For `0005-notifications-sealed`, which
 * reseals it under the notification key: only the migrations function holds both keys.
 */
export const legacyNotificationPreview = (n: Item): string | null =>
  unseal(n.sealedPreview as string | undefined, `notification-preview:${n.recipientId}:${n.id}`);

/**
 * A notice queued in the 0.2.0 form (its grievance and kind in the clear, keyed by its event's time)
 * in the current one: removed, and queued again sealed with a release time from now, with the
 * erasure reference of the notification it will become. One transaction, conditioned on the old
 * notice still being there (a batch that delivered it meanwhile removed it: then nothing is left to
 * convert). A notice whose seal does not open is removed.
 */
export function noticeSealWrites(item: Item): TransactItem[] {
  if (!GrievanceNotice.is(item)) return [];
  const q = item;
  if (q.sealed !== undefined) return [];
  const remove = GrievanceNotice.remove(noticeAddress(q), { ConditionExpression: 'attribute_exists(pk)' });
  const p = openNotice(q);
  if (!p) return [remove];
  return [remove, ...queuedNoticeWrites(p.grievanceId, { recipientId: p.recipientId, kind: p.kind }, new Date())];
}

export const grievanceNoticeSealMigration: DataMigration = {
  id: '0006-grievance-notices-sealed',
  description: 'Queued grievance notices with their grievance and kind sealed, released at rounded times',
  entities: ['GrievanceNotice'],
  migrate: noticeSealWrites,
};
