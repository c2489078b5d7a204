import { page } from '../db/paging.ts';
import { retryOnConflict, transact } from '../db/table.ts';
import { logger } from '../observability/logger.ts';
import { User, type UserItem } from '../people/entities.ts';
import { emailTransport } from '../transports/email.ts';
import { Grievance, GrievanceHandlingEntry, type GrievanceHandlingEntryItem, type GrievanceItem } from './entities.ts';
import {
  applyHandling,
  configuredPeriods,
  type HandlingPeriods,
  nextReminder,
  REMINDER_LEAD_DAYS,
} from './handling.ts';
import { entryAddress, grievanceChangeWrite, handlingEntryWrites, isCurrentEntry } from './handling-index.ts';
import { type NoticeRequest, queuedNoticeWrites } from './notices.ts';
import { GRIEVANCE_INDEX_SHARDS } from './shards.ts';
import { statsWrites } from './stats-fields.ts';
import type { ReminderKind } from './vocabulary.ts';

/** Reminder entries read per shard and run; a longer backlog drains over the next runs. */
const PER_SHARD = 100;
const MAX_ATTEMPTS = 10;
/** Super admins notified in the reminder's own transaction (2 writes each, within DynamoDB's 100). */
const NOTIFIED_IN_TRANSACTION = 25;

const WHAT: Record<ReminderKind, string> = {
  ack_soon: `Acknowledgement due within ${REMINDER_LEAD_DAYS.ack} days`,
  ack_missed: 'Acknowledgement deadline missed',
  feedback_soon: `Feedback due within ${REMINDER_LEAD_DAYS.feedback} days`,
  feedback_missed: 'Feedback deadline missed',
};

/**
 * The bell notification of a reminder, queued like every grievance notice (notices.ts): kind
 * `grievance`, no actor, delivered by a later batch, never in the transaction that names the grievance.
 */
export function reminderNotice(recipientId: string, kind: ReminderKind, g: GrievanceItem): NoticeRequest {
  return { recipientId, kind: 'grievance', preview: `${WHAT[kind]}: ${g.subject}` };
}

/** The e-mail of a reminder: the grievance's id and deadline only, never its text (mail leaves the table). */
function reminderEmail(to: string, kind: ReminderKind, g: GrievanceItem, dueAt: string) {
  return {
    to,
    subject: `Grievance channel: ${WHAT[kind].toLowerCase()}`,
    body: [
      `${WHAT[kind]} for grievance ${g.id}.`,
      `Deadline: ${dueAt}`,
      '',
      'Open the grievance in the handler queue to acknowledge it, reply or move it.',
    ].join('\n'),
  };
}

const activeSuperAdmins = async () =>
  (await User.queryAll({ index: 'byRole', key: { role: 'super_admin' } })).filter((u) => u.status !== 'deactivated');

/**
 * The reminder sweep (docs/data-model.md, Grievances: handling): one Query per shard of the reminder
 * index for the entries due at `now`, then per grievance one transaction that records the reminder as
 * sent (conditioned on the handling revision read, so overlapping or repeated runs send each reminder
 * once), moves its index entry to the next reminder, counts a missed deadline, and records a bell
 * notification queued for every active super admin (delivered by the notice batch); then the e-mails, through the meeting invitations'
 * transport. A "due soon" reminder whose deadline has already passed (the sweep was not running) is
 * recorded as sent without notifying. Answers how many
 * reminders were sent.
 */
export async function sendDueReminders(now = new Date(), periods: HandlingPeriods = configuredPeriods()) {
  const runAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const pages = await Promise.all(
    Array.from({ length: GRIEVANCE_INDEX_SHARDS }, (_, shard) =>
      GrievanceHandlingEntry.query(
        { key: { index: 'REMINDERS', shard }, skBefore: now.toISOString() },
        page({ limit: PER_SHARD }),
      ),
    ),
  );
  const due = pages.flatMap((p) => p.items);
  if (due.length === 0) return 0;
  const admins = await activeSuperAdmins();
  let sent = 0;
  for (const entry of due) sent += await remindFor(entry, now, runAt, admins, periods);
  return sent;
}

/** Sends every reminder of one grievance that is due at `now`; answers how many. */
async function remindFor(
  entry: GrievanceHandlingEntryItem,
  now: Date,
  runAt: Date,
  admins: UserItem[],
  periods: HandlingPeriods,
): Promise<number> {
  let sent = 0;
  // One reminder at a time: the next one of this grievance may be due as well.
  for (;;) {
    const recorded = await retryOnConflict(() => recordNextReminder(entry, now, runAt, admins, periods), {
      attempts: MAX_ATTEMPTS,
      // Handled or reminded by someone else every time: the next run picks it up.
      fallback: () => null,
    });
    if (!recorded) return sent;
    const { g, reminder, recipients, records, silent } = recorded;
    // Beyond what one transaction holds: recorded after it (at most once, never twice).
    for (const rest of records.slice(NOTIFIED_IN_TRANSACTION)) await transact(rest);
    for (const a of recipients) {
      try {
        await emailTransport().send(reminderEmail(a.email, reminder.kind, g, reminder.dueAt));
      } catch (err) {
        logger.error('grievance reminder e-mail not sent', { error: (err as Error).message });
      }
    }
    if (!silent) sent++;
  }
}

/**
 * Records the grievance's next due reminder (its handling state, statistics, entries and the first
 * notifications, in one transaction conditioned on the grievance read), or drops the entry and answers
 * null when nothing is due. A failed condition (handled or reminded meanwhile) is retried by the caller.
 */
async function recordNextReminder(
  entry: GrievanceHandlingEntryItem,
  now: Date,
  runAt: Date,
  admins: UserItem[],
  periods: HandlingPeriods,
) {
  const g = await Grievance.get({ id: entry.grievanceId }, { consistent: true });
  const reminder = g ? nextReminder(g) : null;
  if (!g || !reminder || reminder.at > now.toISOString()) {
    // Nothing (more) is due: drop the entry unless it is the grievance's current one.
    if (!g || !isCurrentEntry(g, entry)) await transact([GrievanceHandlingEntry.remove(entryAddress(entry))]);
    return null;
  }
  const silent = reminder.kind.endsWith('_soon') && now.toISOString() >= reminder.dueAt;
  const recipients = silent ? [] : admins;
  const handled = applyHandling(g, g, { kind: 'reminder', reminder: reminder.kind }, now, periods);
  const records = recipients.map((a) => queuedNoticeWrites(g.id, reminderNotice(a.id, reminder.kind, g), runAt));
  await transact([
    grievanceChangeWrite(g, handled.item),
    ...statsWrites(handled.stats),
    ...handlingEntryWrites(g, handled.item),
    ...records.slice(0, NOTIFIED_IN_TRANSACTION).flat(),
  ]);
  return { g, reminder, recipients, records, silent };
}
