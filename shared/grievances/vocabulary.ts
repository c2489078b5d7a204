/**
 * The grievance channel's closed lists, a leaf module (it imports nothing): the entity declarations
 * (entities.ts), the route declarations and the domain code all take them from here.
 */
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

export type DeadlineOutcome = 'met' | 'missed';
export const REMINDER_KINDS = ['ack_soon', 'ack_missed', 'feedback_soon', 'feedback_missed'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/** What a queued notice becomes: a notification of kind `grievance` (the raiser, a reminder) or `mention`. */
export type NoticeKind = 'grievance' | 'mention';
