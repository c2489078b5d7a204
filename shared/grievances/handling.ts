import { env } from '../config/env.ts';
import type { GrievanceItem } from './entities.ts';
import { type StatsDeltas, statsFields } from './stats-fields.ts';
import { type DeadlineOutcome, isFinished, type ReminderKind, type Status } from './vocabulary.ts';

/**
 * The handling record of a grievance (docs/data-model.md, Grievances: handling), as the EU
 * whistleblowing directive asks of a reporting channel:
 * - acknowledgement deadline: raised + `GRIEVANCE_ACK_DAYS`; met by the first move out of `open` or the
 *   first handler reply;
 * - feedback deadline: `GRIEVANCE_FEEDBACK_DAYS` after the acknowledgement, or after the acknowledgement
 *   deadline when the acknowledgement came late or not at all (the directive's fallback); met by a move
 *   to `resolved` or `closed`, or a handler reply after the acknowledgement.
 * A deadline's outcome is decided once: by the event that meets it (met, or missed when late), or by the
 * reminder sweep when it passes unmet (missed). Pure functions: the callers write what they answer in
 * the transaction of the change.
 */
export interface HandlingPeriods {
  ackDays: number;
  feedbackDays: number;
}
export const configuredPeriods = (): HandlingPeriods => ({
  ackDays: env.grievanceAckDays,
  feedbackDays: env.grievanceFeedbackDays,
});

const DAY_MS = 86_400_000;
const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_MS).toISOString();
/** How long before each deadline its "due soon" reminder goes out. */
export const REMINDER_LEAD_DAYS = { ack: 2, feedback: 14 } as const;

/** Every field of a grievance's handling record (absent on grievances raised before it existed). */
export const HANDLING_FIELDS = [
  'ackDueAt',
  'ackAt',
  'ackOutcome',
  'feedbackDueAt',
  'feedbackAt',
  'feedbackOutcome',
  'resolutionCounted',
  'remindersSent',
  'handlingRev',
] as const;

/** The handling fields of a new grievance. */
export function initialHandling(createdAt: string, periods: HandlingPeriods) {
  const ackDueAt = plusDays(createdAt, periods.ackDays);
  return {
    ackDueAt,
    ackAt: null,
    feedbackDueAt: plusDays(ackDueAt, periods.feedbackDays),
    feedbackAt: null,
    remindersSent: [] as ReminderKind[],
    handlingRev: 0,
  };
}

export const hasHandling = (g: GrievanceItem): g is GrievanceItem & { ackDueAt: string; feedbackDueAt: string } =>
  typeof g.ackDueAt === 'string' && typeof g.feedbackDueAt === 'string';

export type HandlingEvent =
  | { kind: 'move'; to: Status }
  | { kind: 'handler-reply' }
  | { kind: 'reminder'; reminder: ReminderKind };

const outcomeAt = (at: string, dueAt: string): DeadlineOutcome => (at <= dueAt ? 'met' : 'missed');

/**
 * The grievance after `event` at `now` (`after` already carries the event's own changes, e.g. the new
 * status) and the statistics counters it moves. Grievances without a handling record come back
 * unchanged and move no counter.
 */
export function applyHandling(
  before: GrievanceItem,
  after: GrievanceItem,
  event: HandlingEvent,
  now: Date,
  periods: HandlingPeriods,
): { item: GrievanceItem; stats: StatsDeltas } {
  const stats: StatsDeltas = new Map();
  if (!hasHandling(before)) return { item: after, stats };
  const at = now.toISOString();
  const item: GrievanceItem = { ...after, handlingRev: (before.handlingRev ?? 0) + 1 };
  const raisedDay = before.createdAt;
  if (event.kind === 'move' && event.to !== before.status) {
    statsFields.add(stats, raisedDay, statsFields.status(before.status), -1);
    statsFields.add(stats, raisedDay, statsFields.status(event.to), 1);
  }
  const acknowledges =
    !before.ackAt && ((event.kind === 'move' && event.to !== 'open') || event.kind === 'handler-reply');
  if (acknowledges) {
    item.ackAt = at;
    statsFields.add(stats, raisedDay, statsFields.ackHours(now.getTime() - Date.parse(before.createdAt)), 1);
    const ackDueAt = before.ackDueAt;
    item.feedbackDueAt = plusDays(at < ackDueAt ? at : ackDueAt, periods.feedbackDays);
    if (!before.ackOutcome) {
      item.ackOutcome = outcomeAt(at, ackDueAt);
      statsFields.add(stats, ackDueAt, statsFields.outcome('ack', item.ackOutcome), 1);
    }
  }
  const givesFeedback =
    !before.feedbackAt &&
    ((event.kind === 'move' && isFinished(event.to)) || (event.kind === 'handler-reply' && !!before.ackAt));
  if (givesFeedback) {
    item.feedbackAt = at;
    const feedbackDueAt = item.feedbackDueAt as string;
    if (!before.feedbackOutcome) {
      item.feedbackOutcome = outcomeAt(at, feedbackDueAt);
      statsFields.add(stats, feedbackDueAt, statsFields.outcome('feedback', item.feedbackOutcome), 1);
    }
  }
  if (event.kind === 'move' && isFinished(event.to) && !before.resolutionCounted) {
    item.resolutionCounted = true;
    statsFields.add(stats, raisedDay, statsFields.resolutionHours(now.getTime() - Date.parse(before.createdAt)), 1);
  }
  if (event.kind === 'reminder') {
    item.remindersSent = [...(before.remindersSent ?? []), event.reminder];
    // A deadline that passes unmet is missed now, whatever comes later.
    if (event.reminder === 'ack_missed' && !before.ackAt && !before.ackOutcome) {
      item.ackOutcome = 'missed';
      statsFields.add(stats, before.ackDueAt, statsFields.outcome('ack', 'missed'), 1);
    }
    if (event.reminder === 'feedback_missed' && !before.feedbackAt && !before.feedbackOutcome) {
      item.feedbackOutcome = 'missed';
      statsFields.add(stats, before.feedbackDueAt, statsFields.outcome('feedback', 'missed'), 1);
    }
  }
  return { item, stats };
}

/** The grievance's next unmet deadline, if any. */
export function nextDeadline(g: GrievanceItem): { kind: 'acknowledgement' | 'feedback'; dueAt: string } | null {
  if (!hasHandling(g)) return null;
  if (!g.ackAt) return { kind: 'acknowledgement', dueAt: g.ackDueAt };
  if (!g.feedbackAt) return { kind: 'feedback', dueAt: g.feedbackDueAt };
  return null;
}

/** The reminders a grievance still has to send, each at its time (unmet deadlines only). */
function pendingReminders(g: GrievanceItem): { kind: ReminderKind; at: string; dueAt: string }[] {
  if (!hasHandling(g)) return [];
  const sent = new Set(g.remindersSent ?? []);
  const all: { kind: ReminderKind; at: string; dueAt: string }[] = [];
  if (!g.ackAt) {
    all.push({ kind: 'ack_soon', at: plusDays(g.ackDueAt, -REMINDER_LEAD_DAYS.ack), dueAt: g.ackDueAt });
    all.push({ kind: 'ack_missed', at: g.ackDueAt, dueAt: g.ackDueAt });
  }
  if (!g.feedbackAt) {
    const dueAt = g.feedbackDueAt;
    all.push({ kind: 'feedback_soon', at: plusDays(dueAt, -REMINDER_LEAD_DAYS.feedback), dueAt });
    all.push({ kind: 'feedback_missed', at: dueAt, dueAt });
  }
  return all.filter((r) => !sent.has(r.kind)).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** The grievance's next reminder and when it is due, if any. */
export const nextReminder = (g: GrievanceItem) => pendingReminders(g)[0] ?? null;

export type DeadlineState = 'met' | 'missed' | 'pending';

/** One deadline as answered: its due time, when it was met, and met, missed or pending at `now`. */
export function deadlineView(
  dueAt: string,
  metAt: string | null | undefined,
  outcome: DeadlineOutcome | undefined,
  now: Date,
) {
  const state: DeadlineState =
    outcome ?? (metAt ? outcomeAt(metAt, dueAt) : now.toISOString() > dueAt ? 'missed' : 'pending');
  return { dueAt, metAt: metAt ?? null, state };
}

/** Both deadlines of a grievance as answered; null for grievances without a handling record. */
export function deadlinesOf(g: GrievanceItem, now: Date) {
  if (!hasHandling(g)) return null;
  return {
    acknowledgement: deadlineView(g.ackDueAt, g.ackAt, g.ackOutcome, now),
    feedback: deadlineView(g.feedbackDueAt, g.feedbackAt, g.feedbackOutcome, now),
  };
}
