import { ABSENT, PRESENT } from '../db/entity.ts';
import { page } from '../db/paging.ts';
import { isConditionFailure, transact, write } from '../db/table.ts';
import { Notification } from '../notifications/entities.ts';
import { counterWrite, laterMark, type NewNotification, notificationItem } from '../notifications/notifications.ts';
import { deliverPush } from '../push/delivery.ts';
import { Grievance, GrievanceNotice, GrievanceNoticeCursor, type GrievanceNoticeCursorItem } from './entities.ts';
import { notificationRecord } from './erasure-refs.ts';
import { dequeueWrite, noticeAddress, noticeNotification, noticeTiming, openNotice } from './notices.ts';
import { GRIEVANCE_NOTICE_SHARDS } from './shards.ts';

/**
 * How far before the cursor a batch reads again: notices released just before the last batch's
 * bound whose transactions committed after it read the queue. Reading one twice delivers it once (the
 * notification's put is conditioned on its absence).
 */
const REREAD_ROUNDS = 4;
/** Delivered notices are removed a day after their release, in bulk, apart from any delivery. */
const REMOVE_AFTER_MS = 86_400_000;
const REMOVED_PER_RUN = 100;

/**
 * Delivers the queued grievance notices that are released (docs/data-model.md, Grievances: delivery
 * apart from the event). Per queue shard one Query of the notices released since the cursor (less a
 * few rounds) up to the batch time; then per notice one transaction of the notification (its id and
 * time chosen when queued; put only if absent, so rereads and overlapping runs deliver once), the
 * unread counter and a condition that the grievance still exists (a condition check writes nothing:
 * no record of the grievance's partition sits beside the person's). The notice stays on its queue,
 * untouched: removing it with the delivery would pair the event that queued it with the person; it
 * is removed a day later with everything else released then. The cursor holds only a time.
 * Notices queued by 0.2.0 (grievance in the clear, no notification chosen) are delivered the way
 * 0.2.0 did until their migration converts them. `since`: read from that release time instead of
 * the cursor (catching up after the schedule stopped), leaving the cursor as it is. Answers how many
 * notifications were recorded.
 */
export async function deliverGrievanceNotices(now = new Date(), since?: Date): Promise<number> {
  const t = noticeTiming();
  // Never what is not released yet, whatever clock a caller passes: a notice is delivered after its
  // release time or not at all.
  const until = new Date(Math.min(now.getTime(), Date.now()) - t.settleMs).toISOString();
  const cursor = await GrievanceNoticeCursor.get({}, { consistent: true });
  const from =
    since?.toISOString() ??
    (cursor ? new Date(Date.parse(cursor.deliveredTo) - REREAD_ROUNDS * t.roundMs).toISOString() : '0'); // '0': before any time
  const due = (
    await Promise.all(
      Array.from({ length: GRIEVANCE_NOTICE_SHARDS }, (_, shard) =>
        GrievanceNotice.queryAll({ key: { shard }, skBetween: [from, until] }),
      ),
    )
  )
    .flat()
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const opened = due.flatMap((q) => {
    const p = openNotice(q);
    return p ? [{ q, p }] : [];
  });
  const grievances = await Grievance.getMany(opened.map(({ p }) => ({ id: p.grievanceId })));
  const recorded: NewNotification[] = [];
  for (const [i, { q, p }] of opened.entries()) {
    const g = grievances[i];
    const notice = g ? noticeNotification(p, g) : null;
    const at = q.sealed === undefined ? new Date(until) : new Date(p.notifyAt);
    const writesAfter = (mark?: string) =>
      q.sealed === undefined
        ? [dequeueWrite(q), ...(notice ? notificationRecord(notice, p.grievanceId, at, mark) : [])]
        : notice
          ? [
              Notification.put(notificationItem(notice, at, p.notificationId, mark), ABSENT),
              // Not to a person whose erasure started (their counter closed): dropped, as every notification.
              counterWrite(p.recipientId, at.toISOString(), mark),
            ]
          : [];
    if (writesAfter().length === 0) continue; // the grievance is gone: nothing to deliver
    let mark: string | undefined;
    let delivered = false;
    for (;;) {
      try {
        // The grievance must still exist: else the retention sweep may have erased it, and with it the
        // reference it would erase this notification by.
        await transact([...writesAfter(mark), ...(notice ? [Grievance.check({ id: p.grievanceId }, PRESENT)] : [])]);
        delivered = true;
        break;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        // The recipient marked all read after the notice's date: recorded after that mark (unread).
        // Else delivered already, the grievance is gone, or the recipient is being erased.
        const later = notice ? await laterMark(p.recipientId, at, mark) : null;
        if (later === null) break;
        mark = later;
      }
    }
    if (!delivered) continue;
    if (notice) recorded.push(notice);
  }
  // A run told where to start (a catch-up, or a caller with its own clock) leaves the cursor alone.
  if (!since) await advanceCursor(cursor, until);
  await removeDelivered(now);
  await deliverPush(recorded);
  return recorded.length;
}

/** Moves the cursor forward, never back. */
async function advanceCursor(cursor: GrievanceNoticeCursorItem | undefined, to: string): Promise<void> {
  if (cursor && cursor.deliveredTo >= to) return;
  try {
    await write(
      GrievanceNoticeCursor.put(
        { deliveredTo: to },
        cursor
          ? { ConditionExpression: 'deliveredTo = :seen', ExpressionAttributeValues: { ':seen': cursor.deliveredTo } }
          : ABSENT,
      ),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err; // an overlapping run moved it
  }
}

/** Removes notices released more than a day ago (delivered, or dropped with their grievance). */
async function removeDelivered(now: Date): Promise<void> {
  const before = new Date(now.getTime() - REMOVE_AFTER_MS).toISOString();
  for (let shard = 0; shard < GRIEVANCE_NOTICE_SHARDS; shard++) {
    const { items } = await GrievanceNotice.query(
      { key: { shard }, skBefore: before },
      page({ limit: REMOVED_PER_RUN }),
    );
    // Notices of 0.2.0 are left to their own delivery or migration.
    for (const q of items.filter((i) => i.sealed !== undefined)) {
      await transact([GrievanceNotice.remove(noticeAddress(q))]).catch((e) =>
        isConditionFailure(e) ? undefined : Promise.reject(e),
      );
    }
  }
}
