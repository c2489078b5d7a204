import { type EntityFields, type EntityItem, entity, keyOnly, shape } from '../db/entity.ts';
import { type HandlingIndex, handlingPartitionWord } from './shards.ts';
import type { Category, DeadlineOutcome, NoticeKind, ReminderKind, ReplyRole, Status } from './vocabulary.ts';

/**
 * The grievance channel's entities (docs/data-model.md, Grievances), each declared once; the item
 * types are derived from the declarations. Every one is `anon`: its items carry the ANON attribute
 * that keeps them out of the change feed.
 *
 * Anonymity at rest: no grievance key or attribute holds a user id. Who raised or wrote something is a
 * keyed hash (HMAC with GRIEVANCE_SECRET) of the person and that one grievance or reply ("tag",
 * anonymity.ts), so two things one person wrote cannot be linked; per-person items are keyed by such
 * tags as well. Key composites an item stores (a read marker's tag, a notice's shard and time) are
 * already in its key: storing them adds nothing a reader of the table could not see.
 */

/** The move number in a history entry's sort key: 8 digits, so the history sorts in the order the moves committed in. */
const moveDigits = (move: number) => String(move).padStart(8, '0');
/** The month (`YYYY-MM`) of an erasure run: its audit items are partitioned by month. */
const runMonth = (runAt: string) => runAt.slice(0, 7);

/**
 * A grievance. Nothing here names the raiser: `raiserTag` answers "is the caller the raiser?",
 * `raiserSeal` (encrypted) lets the service notify them. Its status changes (`STATUS#<move>`), replies
 * (`REPLY#<id>`) and erasure references (`READER#`, `NOTIFIED#`) share its partition.
 *
 * The board and the handler queue: one index per filter combination, so every filtered page (newest or
 * oldest first) is a single Query (board.ts picks the index for a filter); a status move moves gsi2 and
 * gsi4 (`Grievance.change`).
 */
export const Grievance = entity({
  name: 'Grievance',
  fields: shape<{
    id: string;
    subject: string;
    description: string;
    category: Category;
    status: Status;
    resolvedAt: string | null;
    replyCount: number;
    statusNote: string | null;
    statusNoteAt: string | null;
    createdAt: string;
    updatedAt: string;
    /** How many status moves committed; each move is conditioned on it (no lost or doubled moves). */
    moves: number;
    raiserTag: string;
    raiserSeal: string;
    /*
     * The handling record (handling.ts): absent on grievances raised before it existed, which then have
     * no deadlines (`hasHandling`; `0002-grievance-handling-records` gives them one). Never shown on the
     * routes of the specification.
     */
    ackDueAt?: string;
    ackAt?: string | null;
    ackOutcome?: DeadlineOutcome;
    feedbackDueAt?: string;
    feedbackAt?: string | null;
    feedbackOutcome?: DeadlineOutcome;
    /** The reminders already sent, so a rerun of the sweep sends none twice. */
    remindersSent?: ReminderKind[];
    /** Set by the first move to a finished status: the resolution time is counted once. */
    resolutionCounted?: boolean;
    /** Counts every change of the handling record; each such change is conditioned on it. */
    handlingRev?: number;
  }>(),
  key: { pk: ['GRIEVANCE', 'id'], sk: ['GRIEVANCE'] },
  indexes: {
    all: { index: 'gsi1', pk: ['GRIEVANCES'], sk: ['createdAt', 'id'] },
    byStatus: { index: 'gsi2', pk: ['GRIEVANCES', 'S', 'status'], sk: ['createdAt', 'id'] },
    byCategory: { index: 'gsi3', pk: ['GRIEVANCES', 'C', 'category'], sk: ['createdAt', 'id'] },
    byBoth: { index: 'gsi4', pk: ['GRIEVANCES', 'S', 'status', 'C', 'category'], sk: ['createdAt', 'id'] },
  },
  anon: true,
});
export type GrievanceItem = EntityItem<typeof Grievance>;

/** A reply on a grievance, in the grievance's partition, by its time-sortable id. */
export const GrievanceReply = entity({
  name: 'GrievanceReply',
  fields: shape<{
    id: string;
    grievanceId: string;
    authorRole: ReplyRole;
    /**
     * The body and the ids of the people it tags (never the author), sealed: a body carries `@[userId]`
     * tokens by design, so in the clear a reply would put user ids next to the grievance (a tagged
     * raiser, or an author tagging themselves).
     */
    sealedContent: string;
    createdAt: string;
    editedAt: string | null;
    /** Edit counter; each edit is conditioned on it so concurrent edits notify nobody twice. */
    rev: number;
    authorTag: string;
    /** Handler replies only: the handler's id, encrypted, for `author` on admin routes. */
    handlerSeal?: string;
  }>(),
  key: { pk: ['GRIEVANCE', 'grievanceId'], sk: ['REPLY', 'id'] },
  anon: true,
});
export type GrievanceReplyItem = EntityItem<typeof GrievanceReply>;

/** An entry of a grievance's status history, numbered by the move that wrote it (the raise is move 0). */
export const GrievanceStatusChange = entity({
  name: 'GrievanceStatusChange',
  fields: shape<{
    id: string;
    grievanceId: string;
    /** Its number in the history (the key's composite). */
    move: number;
    fromStatus: Status | null;
    toStatus: Status;
    reason: string;
    createdAt: string;
    /** The handler's id, encrypted; absent on the raised entry. */
    changedBySeal?: string;
  }>(),
  key: { pk: ['GRIEVANCE', 'grievanceId'], sk: ['STATUS', { field: 'move', as: moveDigits }] },
  // Entries written before 0.2.0 stored it carry it in their sort key only (legacy-keys.ts).
  legacy: ['move'],
  anon: true,
});
export type GrievanceStatusChangeItem = EntityItem<typeof GrievanceStatusChange>;

/*
 * What erasing a grievance must find that is not keyed by it (docs/data-model.md, Grievances:
 * retention): a person's read marker and every notification about the grievance. One reference each in
 * the grievance's partition (erasure-refs.ts), written with the marker or the queued notice, holding
 * the person (and the notification) sealed, under a random id and with no time.
 */
/** What the retention sweep erases a person's read marker by: the reader, sealed. */
export const GrievanceReaderRef = entity({
  name: 'GrievanceReaderRef',
  fields: shape<{ grievanceId: string; refId: string; readerSeal: string }>(),
  key: { pk: ['GRIEVANCE', 'grievanceId'], sk: ['READER', 'refId'] },
  anon: true,
});
export type GrievanceReaderRefItem = EntityItem<typeof GrievanceReaderRef>;

/** What the retention sweep erases a notification about the grievance by: recipient and notification, sealed. */
export const GrievanceNotificationRef = entity({
  name: 'GrievanceNotificationRef',
  fields: shape<{ grievanceId: string; refId: string; notificationSeal: string }>(),
  key: { pk: ['GRIEVANCE', 'grievanceId'], sk: ['NOTIFIED', 'refId'] },
  anon: true,
});
export type GrievanceNotificationRefItem = EntityItem<typeof GrievanceNotificationRef>;

/**
 * The board totals: one counter per filter combination (`all`, `status_<s>`, `category_<c>`,
 * `status_<s>_category_<c>`, totals.ts), all on one item, moved with ADD in the transaction of every
 * raise and move.
 */
export const GrievanceTotals = entity({
  name: 'GrievanceTotals',
  fields: shape<{ all?: number; [filter: `status_${string}` | `category_${string}`]: number }>(),
  key: { pk: ['GRIEVANCE_TOTALS'], sk: ['TOTALS'] },
  inPlace: true,
  anon: true,
});
export type GrievanceTotalsItem = EntityItem<typeof GrievanceTotals>;

/**
 * A person's first read of a grievance, addressed by tag(person, grievance) alone (read-state.ts): it
 * names neither.
 */
export const GrievanceRead = entity({
  name: 'GrievanceRead',
  fields: shape<{ readTag: string; readAt: string }>(),
  key: { pk: ['GRIEVANCE_READ', 'readTag'], sk: ['READ'] },
  // Markers written before 0.2.0 stored it carry it in their key only (they are read and erased by their key).
  legacy: ['readTag'],
  anon: true,
});

/**
 * How many grievances a person raised or first read (unread = all − this), addressed by tag(person),
 * which it does not store; moved with ADD.
 */
export const GrievanceSeen = entity({
  name: 'GrievanceSeen',
  fields: shape<{ seen: number }>(),
  keyOnly: keyOnly<{ personTag: string }>('personTag'),
  key: { pk: ['GRIEVANCE_SEEN', 'personTag'], sk: ['COUNT'] },
  inPlace: true,
  anon: true,
});

/**
 * A notice waiting for its delivery batch (notices.ts), on a random queue shard (shards.ts), keyed by
 * its release time and a random id: the sort key starts with the time, so a batch reads exactly the
 * notices that are due. Everything else is in `sealed`. The optional fields are the form of 0.2.0
 * (keyed by the event's time; grievance and kind in the clear, the recipient sealed alone), read until
 * `0006-grievance-notices-sealed` has converted it.
 */
export const GrievanceNotice = entity({
  name: 'GrievanceNotice',
  fields: shape<{
    shard: number;
    releaseAt: string;
    id: string;
    /** The grievance, recipient, kind, the notification's id and time and a reminder's preview, sealed. */
    sealed: string;
    eventAt?: string;
    grievanceId?: string;
    kind?: NoticeKind;
    recipientSeal?: string;
  }>(),
  key: { pk: ['GRIEVANCE_NOTICES', 'shard'], sk: ['releaseAt', 'id'] },
  // Notices queued before 0.2.0 stored their shard and time name them in their key only (legacy-keys.ts).
  legacy: ['shard', 'releaseAt', 'sealed'],
  anon: true,
});
export type GrievanceNoticeItem = EntityItem<typeof GrievanceNotice>;

/**
 * Where the delivery batch has read the queues up to (`deliveredTo`, a time only: never a notice's id,
 * which would tie the batch's writes to the event that queued it).
 */
export const GrievanceNoticeCursor = entity({
  name: 'GrievanceNoticeCursor',
  fields: shape<{ deliveredTo: string }>(),
  key: { pk: ['GRIEVANCE_NOTICES_CURSOR'], sk: ['CURSOR'] },
  anon: true,
});
export type GrievanceNoticeCursorItem = EntityItem<typeof GrievanceNoticeCursor>;

/**
 * An entry of one of the three handling indexes (handling-index.ts): `GRIEVANCE_<index>#<shard>`, the
 * time first in the sort key, so a sweep reads exactly what is due. One entity, the index a key
 * composite, rather than one per index: the entries of all three are one shape derived by one function
 * from the grievance, and each change writes their difference in one pass. The index is stored on the
 * entry; the shard, a function of the grievance id (shards.ts), is not.
 */
export const GrievanceHandlingEntry = entity({
  name: 'GrievanceHandlingEntry',
  fields: shape<{ index: HandlingIndex; grievanceId: string; at: string }>(),
  keyOnly: keyOnly<{ shard: number }>('shard'),
  key: { pk: [{ field: 'index', as: handlingPartitionWord }, 'shard'], sk: ['at', 'grievanceId'] },
  anon: true,
});
export type GrievanceHandlingEntryItem = EntityItem<typeof GrievanceHandlingEntry>;
/** What addresses an entry: its fields and its shard. */
export type GrievanceHandlingEntryFields = EntityFields<typeof GrievanceHandlingEntry>;

/**
 * The handler statistics of one UTC day (`YYYY-MM-DD`, not stored): counters only, moved with ADD in the
 * transactions of the raises, moves, replies and sweeps they count (stats-fields.ts); a period is one
 * BatchGet of its days.
 */
export const GrievanceStats = entity({
  name: 'GrievanceStats',
  fields: shape<{
    raised?: number;
    erased?: number;
    ackMet?: number;
    ackMissed?: number;
    feedbackMet?: number;
    feedbackMissed?: number;
    [counter: `${'category' | 'status' | 'ackHours' | 'resolutionHours'}_${string}`]: number;
  }>(),
  keyOnly: keyOnly<{ day: string }>('day'),
  key: { pk: ['GRIEVANCE_STATS', 'day'], sk: ['STATS'] },
  inPlace: true,
  anon: true,
});
export type GrievanceStatsItem = EntityItem<typeof GrievanceStats>;

/**
 * One retention sweep run that erased something: how many grievances, and when (never what), by UTC
 * month; moved with ADD.
 */
export const GrievanceErasureAudit = entity({
  name: 'GrievanceErasureAudit',
  fields: shape<{ erased: number; runAt: string }>(),
  key: { pk: ['GRIEVANCE_ERASURES', { field: 'runAt', as: runMonth }], sk: ['runAt'] },
  inPlace: true,
  anon: true,
});
