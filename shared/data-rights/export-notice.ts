import { transact } from '../db/table.ts';
import { Notification } from '../notifications/entities.ts';
import { counterWrite, notificationItem } from '../notifications/notifications.ts';
import { User } from '../people/entities.ts';
import { emailTransport } from '../transports/email.ts';
import { DataExport, type DataExportItem, type ExportNotice } from './entities.ts';
import { failureKind } from './job-failure.ts';
import { leaseHeld, renewLease, writeHeld } from './lease.ts';

/**
 * The notice a super admin's export owes its person (docs/people-data.md),
 * recorded with the job when it was asked (export-requests.ts) and sent here by the worker: the
 * notification on the bell first (with the job's record, in one transaction, so it is written once),
 * then the e-mail, recorded as sent once the transport took it. A channel that fails stays `pending`
 * and is tried again by the next run, however often it takes; an e-mail whose sending succeeded but
 * whose record did not (the run stopped in between) is sent again: at least once, never lost. A person
 * whose erasure has begun, or who is gone, is not written to: the notice is dropped.
 */
export const noticePending = (n: ExportNotice | undefined): boolean =>
  !!n && (n.email === 'pending' || n.inApp === 'pending');

/** What the notification on the bell says (an announcement of the company: no actor). */
export const NOTICE_PREVIEW =
  'An administrator started a copy of the data the workplace platform holds about you. You can read it too.';

export async function deliverNotice(
  job: DataExportItem,
  lease: string,
  now = new Date(),
): Promise<DataExportItem | null> {
  const notice = job.notice;
  if (!notice || !noticePending(notice)) return job;
  const drop = (s: ExportNotice['email']) => (s === 'pending' ? 'dropped' : s);
  const person = await User.get({ id: job.userId }, { consistent: true });
  if (!person || person.erasureId)
    return record(job, lease, { ...notice, email: drop(notice.email), inApp: notice.inApp && drop(notice.inApp) });

  let current = job;
  let state: ExportNotice = { ...notice };
  try {
    if (state.inApp === 'pending') {
      state = { ...state, inApp: person.status === 'active' ? 'sent' : 'dropped' };
      const next = { ...current, notice: state, leaseUntil: renewLease(lease) };
      if (state.inApp === 'sent') {
        const item = notificationItem(
          { recipientId: person.id, kind: 'announcement', actorId: null, preview: NOTICE_PREVIEW },
          now,
          notice.notificationId,
        );
        await transact([
          DataExport.change(current, next, leaseHeld(lease)),
          Notification.create(item),
          // Counted as every notification is: not past a read-up-to mark (the next run tries again, later).
          counterWrite(person.id, item.createdAt),
          // Not to a person whose erasure began meanwhile.
          User.check(
            { id: person.id },
            { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(erasureId)' },
          ),
        ]);
        current = next;
      } else {
        const written = await writeHeld(DataExport, current, next, lease);
        if (!written) return null;
        current = written;
      }
    }
    if (state.email === 'pending') {
      await emailTransport().send({
        to: person.email,
        subject: 'A copy of your data was requested',
        body: `Hello ${person.name},\n\nOn ${new Date(job.requestedAt).toUTCString()} an administrator of the workplace platform started an export of the data it holds about you (a copy, as data protection law entitles you to). You can read it too, signed in, at /users/me/data-export/${job.id}. If you did not ask for it, you may ask your company why.\n`,
      });
      state = { ...state, email: 'sent' };
      return record(current, current.leaseUntil ?? lease, state);
    }
    return current;
  } catch (err) {
    // Tried again by the next run (a condition failure: the job or the person changed; read again then).
    const failed = { ...notice, ...pick(current.notice), attempts: notice.attempts + 1, lastError: failureKind(err) };
    return record(current, current.leaseUntil ?? lease, failed).catch(() => null);
  }
}

const pick = (n: ExportNotice | undefined) => (n ? { email: n.email, inApp: n.inApp } : {});

function record(job: DataExportItem, lease: string, notice: ExportNotice): Promise<DataExportItem | null> {
  return writeHeld(DataExport, job, { ...job, notice, leaseUntil: renewLease(lease) }, lease);
}
