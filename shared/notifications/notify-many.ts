import { failedConditions, isConditionFailure, type TransactItem, transact } from '../db/table.ts';
import { laterMark, type NewNotification, notificationWrites } from './notifications.ts';

/**
 * Records many notifications in few transactions (each notification is its item plus its recipient's
 * unread counter: 2 of the 100 items a transaction may hold). Nobody is notified of their own action.
 */
export const NOTIFICATIONS_PER_TRANSACTION = 49;

/**
 * The transaction items of one batch of notifications (distinct recipients), plus `extra` writes;
 * `marks`: the read-up-to marks some recipients' notifications are recorded after (laterMark).
 */
export function notificationBatch(
  list: NewNotification[],
  extra: TransactItem[] = [],
  at = new Date(),
  marks: ReadonlyMap<string, string> = new Map(),
): TransactItem[] {
  return [...extra, ...list.flatMap((n) => notificationWrites(n, at, undefined, marks.get(n.recipientId)).items)];
}

export async function notifyMany(list: NewNotification[]): Promise<void> {
  const wanted = list.filter((n) => !(n.actorId && n.actorId === n.recipientId));
  // A transaction may touch an item once: a recipient's counter must not appear twice in one batch.
  const batches: NewNotification[][] = [];
  for (const n of wanted) {
    const batch = batches.find(
      (b) => b.length < NOTIFICATIONS_PER_TRANSACTION && !b.some((x) => x.recipientId === n.recipientId),
    );
    if (batch) batch.push(n);
    else batches.push([n]);
  }
  for (const batch of batches) await transactNotifications(batch);
}

/**
 * Writes a batch of notifications with `extra` writes in one transaction. A recipient whose erasure
 * started (their counter closed, notifications.ts counterWrite) fails the transaction: the batch is
 * written again without them, so their notification is dropped and everybody else's recorded. A
 * recipient whose read-up-to mark reaches the batch's date fails it too: written again stamped with
 * that mark (recorded after it, unread). A failed
 * condition of an `extra` write is the caller's: rethrown. Answers the notifications recorded.
 */
export async function transactNotifications(
  list: NewNotification[],
  extra: TransactItem[] = [],
): Promise<NewNotification[]> {
  let notes = list;
  const marks = new Map<string, string>();
  for (;;) {
    const at = new Date();
    try {
      await transact(notificationBatch(notes, extra, at, marks));
      return notes;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const failed = failedConditions(err);
      // Each notification is two items after `extra`: its item, then its counter.
      const refused = [...new Set(failed.filter((i) => i >= extra.length).map((i) => (i - extra.length) >> 1))];
      if (failed.some((i) => i < extra.length) || refused.length === 0) throw err;
      const later = await Promise.all(
        refused.map((i) => laterMark(notes[i]!.recipientId, at, marks.get(notes[i]!.recipientId))),
      );
      const closed = new Set(refused.filter((_, k) => later[k] === null));
      refused.forEach((i, k) => {
        if (later[k] !== null) marks.set(notes[i]!.recipientId, later[k]!);
      });
      notes = notes.filter((_, i) => !closed.has(i));
    }
  }
}
