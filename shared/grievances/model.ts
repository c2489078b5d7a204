import { ANON_ATTRIBUTE } from '../db/keys.ts';
import { seal, unseal } from './anonymity.ts';

/** The closed lists of statuses and categories. */
export const CATEGORIES = [
  'harassment',
  'discrimination',
  'workplace_safety',
  'compensation',
  'management',
  'workload',
  'policy',
  'facilities',
  'other',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const STATUSES = ['open', 'in_review', 'resolved', 'closed'] as const;
export type Status = (typeof STATUSES)[number];
/** Resolved and closed both count as finished and carry `resolvedAt`. */
export const isFinished = (s: Status) => s === 'resolved' || s === 'closed';

export const REPLY_ROLES = ['submitter', 'employee', 'handler'] as const;
export type ReplyRole = (typeof REPLY_ROLES)[number];

/** What every reader is shown instead of a name. */
export const ANONYMOUS_NAME = 'Anonymous';
export const TEAM_NAME = 'Grievance team';

/** Every grievance item carries this, so the change feed never sees it. */
export const ANON = { [ANON_ATTRIBUTE]: true } as const;

/**
 * A grievance as stored. Nothing here names the raiser: `raiserTag` answers "is the caller the
 * raiser?", `raiserSeal` (encrypted) lets the service notify them.
 */
export interface GrievanceItem {
  pk: string;
  sk: string;
  entity: 'Grievance';
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
  /**
   * The handling record (shared/grievances/handling.ts); absent on grievances raised before it existed,
   * which then have no deadlines. Never shown on the routes of the specification.
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
}

export type DeadlineOutcome = 'met' | 'missed';
export const REMINDER_KINDS = ['ack_soon', 'ack_missed', 'feedback_soon', 'feedback_missed'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

export interface ReplyItem {
  pk: string;
  sk: string;
  entity: 'GrievanceReply';
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
}

export interface StatusChangeItem {
  pk: string;
  sk: string;
  entity: 'GrievanceStatusChange';
  id: string;
  grievanceId: string;
  /** Its number in the history (the key's composite); absent on entries written before it was stored. */
  move: number;
  fromStatus: Status | null;
  toStatus: Status;
  reason: string;
  createdAt: string;
  /** The handler's id, encrypted; absent on the raised entry. */
  changedBySeal?: string;
}

/** Seal contexts: each seal opens only on the item it was made for. */
export const sealContexts = {
  raiser: (grievanceId: string) => `grievance-raiser:${grievanceId}`,
  handlerReply: (grievanceId: string, replyId: string) => `grievance-handler-reply:${grievanceId}:${replyId}`,
  replyContent: (grievanceId: string, replyId: string) => `grievance-reply-content:${grievanceId}:${replyId}`,
  changedBy: (grievanceId: string, changeId: string) => `grievance-status-change:${grievanceId}:${changeId}`,
  noticeRecipient: (grievanceId: string, noticeId: string) => `grievance-notice:${grievanceId}:${noticeId}`,
  notice: (noticeId: string) => `grievance-notice-payload:${noticeId}`,
  readerRef: (grievanceId: string, refId: string) => `grievance-reader-ref:${grievanceId}:${refId}`,
  notificationRef: (grievanceId: string, refId: string) => `grievance-notification-ref:${grievanceId}:${refId}`,
};

/** Ids are time-sortable ids (shared/db/ids.ts); anything else names nothing and is a 404 without a read. */
export const isEntityId = (id: string) => /^[0-9a-z]{22}$/.test(id);

/** What a reply says: its body as sent and the people it tags. */
export interface ReplyContent {
  body: string;
  mentionIds: string[];
}

export const sealReplyContent = (grievanceId: string, replyId: string, content: ReplyContent): string =>
  seal(JSON.stringify(content), sealContexts.replyContent(grievanceId, replyId));

/** The reply's content; a seal that does not open (another secret) reads as empty rather than failing the page. */
export function openReplyContent(r: Pick<ReplyItem, 'grievanceId' | 'id' | 'sealedContent'>): ReplyContent {
  const text = unseal(r.sealedContent, sealContexts.replyContent(r.grievanceId, r.id));
  return text ? (JSON.parse(text) as ReplyContent) : { body: '', mentionIds: [] };
}
