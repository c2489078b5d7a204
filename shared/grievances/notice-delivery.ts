import { PRESENT } from '../db/entity.ts';
import { GRIEVANCE_NOTICE_SHARDS, grievanceKey, grievanceNoticeQueue } from '../db/keys.ts';
import { getMany, isConditionFailure, keyString, queryPage, transact } from '../db/table.ts';
import type { NewNotification } from '../notifications/notifications.ts';
import { deliverPush } from '../push/delivery.ts';
import { Grievance } from './entities.ts';
import { notificationRecord } from './erasure-refs.ts';
import type { GrievanceItem } from './model.ts';
import { dequeueWrite, noticeNotification, type QueuedNoticeItem, recipientOf } from './notices.ts';

/**
 * How long a notice waits at least, counted from its event to the batch time. Batch times are whole
 * seconds, so every notification lies more than a second after its event (the anonymity-at-rest
 * test checks that gap on every personal item).
 */
export const MIN_NOTICE_DELAY_MS = 1500;
/** Notices read per shard and run; a longer backlog drains over the next runs. */
const PER_SHARD = 100;

/**
 * Delivers the queued grievance notices that are due (docs/data-model.md, Grievances): one Query per
 * queue shard for the notices of events at least `MIN_NOTICE_DELAY_MS` before the batch time, then
 * one transaction per notice that removes it from the queue (conditionally, so overlapping runs
 * deliver each notice once) and records the notification with the recipient's unread counter and the
 * sealed reference the retention sweep erases it by (erasure-refs.ts). Every
 * notification of a batch carries the batch time, rounded down to the second, and the batch is
 * written in the order of the notices' random ids: neither time nor order tells events apart. A
 * notice whose grievance no longer exists, or whose recipient seal does not open, is dropped.
 * Answers how many notifications were recorded.
 */
export async function deliverGrievanceNotices(now = new Date()): Promise<number> {
  const batchAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const dueBefore = new Date(batchAt.getTime() - MIN_NOTICE_DELAY_MS).toISOString();
  const pages = await Promise.all(
    Array.from({ length: GRIEVANCE_NOTICE_SHARDS }, (_, shard) =>
      queryPage<QueuedNoticeItem>({ pk: grievanceNoticeQueue(shard), skBefore: dueBefore, limit: PER_SHARD }),
    ),
  );
  const due = pages.flatMap((p) => p.items).sort((a, b) => (a.id < b.id ? -1 : 1));
  if (due.length === 0) return 0;
  const grievances = await getMany<GrievanceItem>(due.map((q) => grievanceKey(q.grievanceId)));
  const recorded: NewNotification[] = [];
  for (const q of due) {
    const g = grievances.get(keyString(grievanceKey(q.grievanceId)));
    const recipientId = recipientOf(q);
    const notice = g && recipientId ? noticeNotification(recipientId, q.kind, g) : null;
    // The grievance must still exist when the notification is recorded: else the retention sweep may
    // have erased it meanwhile, and with it every reference it erases notifications by.
    const writes = notice
      ? [...notificationRecord(notice, q.grievanceId, batchAt), Grievance.check([q.grievanceId], PRESENT)]
      : [];
    try {
      await transact([dequeueWrite(q), ...writes]);
    } catch (err) {
      if (isConditionFailure(err)) continue; // an overlapping run delivered it, or the grievance is gone
      throw err;
    }
    if (notice) recorded.push(notice);
  }
  await deliverPush(recorded);
  return recorded.length;
}
