import { entity } from '../db/entity.ts';
import {
  grievanceBoardIndex,
  grievanceErasureAuditKey,
  grievanceHandlingKey,
  grievanceHandlingShard,
  grievanceKey,
  grievanceNoticeCursorKey,
  grievanceNoticeKey,
  grievanceNotificationRefKey,
  grievanceReaderRefKey,
  grievanceReadKey,
  grievanceReplyKey,
  grievanceSeenKey,
  grievanceStatsKey,
  grievanceStatusChangeKey,
  grievanceTotalsKey,
} from '../db/keys.ts';
import type { NotificationRefItem, ReaderRefItem } from './erasure-refs.ts';
import type { HandlingEntryItem } from './handling-index.ts';
import type { GrievanceItem, ReplyItem, StatusChangeItem } from './model.ts';
import type { QueuedNoticeItem } from './notices.ts';
import type { ReadMarkerItem, SeenItem } from './read-state.ts';
import type { ErasureAuditItem } from './retention.ts';
import type { StatsItem } from './stats-fields.ts';
import type { TotalsItem } from './totals.ts';

/**
 * The grievance channel's entities (docs/data-model.md, Grievances), each declared once. Every one is
 * `anon`: its items carry the ANON attribute that keeps them out of the change feed. Key composites an
 * item stores (a read marker's tag, a notice's shard and time) are already in its key: storing them
 * adds nothing a reader of the table could not see.
 */

type Filter = { status?: string; category?: string };
/** The four board filters a grievance is listed under: all, by status, by category, by both. */
const BOARD_FILTERS: ((g: Pick<GrievanceItem, 'status' | 'category'>) => Filter)[] = [
  () => ({}),
  (g) => ({ status: g.status }),
  (g) => ({ category: g.category }),
  (g) => ({ status: g.status, category: g.category }),
];

/** A grievance, on the board's four indexes (gsi1–gsi4, sk `<createdAt>#<id>`); a status move moves gsi2 and gsi4. */
export const Grievance = entity<GrievanceItem, [grievanceId: string]>({
  name: 'Grievance',
  key: grievanceKey,
  keyOf: (g) => [g.id],
  anon: true,
  indexes: BOARD_FILTERS.map((filterOf) => ({
    // The index depends only on which filters are set, so any grievance names it.
    index: grievanceBoardIndex(filterOf({ status: 'open', category: 'other' })).index,
    pk: (g) => grievanceBoardIndex(filterOf(g)).pk,
    sk: (g) => `${g.createdAt}#${g.id}`,
  })),
});

/** A reply on a grievance, in the grievance's partition. */
export const GrievanceReply = entity<ReplyItem, [grievanceId: string, replyId: string]>({
  name: 'GrievanceReply',
  key: grievanceReplyKey,
  keyOf: (r) => [r.grievanceId, r.id],
  anon: true,
});

/** An entry of a grievance's status history, numbered by the move that wrote it (the raise is move 0). */
export const GrievanceStatusChange = entity<StatusChangeItem, [grievanceId: string, move: number]>({
  name: 'GrievanceStatusChange',
  key: grievanceStatusChangeKey,
  keyOf: (c) => [c.grievanceId, c.move],
  anon: true,
});

/** What the retention sweep erases a person's read marker by (erasure-refs.ts): the reader, sealed. */
export const GrievanceReaderRef = entity<ReaderRefItem, [grievanceId: string, refId: string]>({
  name: 'GrievanceReaderRef',
  key: grievanceReaderRefKey,
  keyOf: (r) => [r.grievanceId, r.refId],
  anon: true,
});

/** What the retention sweep erases a notification about the grievance by: recipient and notification, sealed. */
export const GrievanceNotificationRef = entity<NotificationRefItem, [grievanceId: string, refId: string]>({
  name: 'GrievanceNotificationRef',
  key: grievanceNotificationRefKey,
  keyOf: (r) => [r.grievanceId, r.refId],
  anon: true,
});

/** The board totals: one counter per filter combination, moved with ADD (totals.ts). */
export const GrievanceTotals = entity<TotalsItem, []>({
  name: 'GrievanceTotals',
  key: grievanceTotalsKey,
  anon: true,
});

/** A person's first read of a grievance, addressed by tag(person, grievance) alone (read-state.ts). */
export const GrievanceRead = entity<ReadMarkerItem, [readTag: string]>({
  name: 'GrievanceRead',
  key: grievanceReadKey,
  keyOf: (m) => [m.readTag],
  anon: true,
});

/** How many grievances a person raised or first read, addressed by tag(person), moved with ADD. */
export const GrievanceSeen = entity<SeenItem, [personTag: string]>({
  name: 'GrievanceSeen',
  key: grievanceSeenKey,
  anon: true,
});

/** A notice waiting for its delivery batch (notices.ts), on a random queue shard, the recipient sealed. */
export const GrievanceNotice = entity<QueuedNoticeItem, [shard: number, releaseAt: string, noticeId: string]>({
  name: 'GrievanceNotice',
  key: grievanceNoticeKey,
  keyOf: (q) => [q.shard, q.releaseAt, q.id],
  anon: true,
});

/** The delivery batch's read position in the notice queues (`deliveredTo`, a time). */
export interface NoticeCursorItem {
  pk: string;
  sk: string;
  entity: 'GrievanceNoticeCursor';
  deliveredTo: string;
}
export const GrievanceNoticeCursor = entity<NoticeCursorItem, []>({
  name: 'GrievanceNoticeCursor',
  key: grievanceNoticeCursorKey,
  keyOf: () => [],
  anon: true,
});

/**
 * An entry of one of the three handling indexes (handling-index.ts). One entity, the index a key
 * composite, rather than one per index: the entries of all three are one shape derived by one function
 * from the grievance, and each change writes their difference in one pass; the index is stored on the
 * entry (`index`), the shard is a function of the grievance id.
 */
export const GrievanceHandlingEntry = entity<
  HandlingEntryItem,
  [index: HandlingEntryItem['index'], shard: number, at: string, grievanceId: string]
>({
  name: 'GrievanceHandlingEntry',
  key: grievanceHandlingKey,
  keyOf: (e) => [e.index, grievanceHandlingShard(e.grievanceId), e.at, e.grievanceId],
  anon: true,
});

/** The handler statistics of one UTC day: counters only, moved with ADD (stats-fields.ts). */
export const GrievanceStats = entity<StatsItem, [day: string]>({
  name: 'GrievanceStats',
  key: grievanceStatsKey,
  anon: true,
});

/** One retention sweep run: how many grievances it erased, and when (never what). */
export const GrievanceErasureAudit = entity<ErasureAuditItem, [runAt: string]>({
  name: 'GrievanceErasureAudit',
  key: grievanceErasureAuditKey,
  anon: true,
});
