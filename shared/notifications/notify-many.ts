import { type TransactItem, transact } from '../db/table.ts';
import { type NewNotification, notificationWrites } from './notifications.ts';

/**
 * Records many notifications in few transactions (each notification is its item plus its recipient's
 * unread counter: 2 of the 100 items a transaction may hold). Nobody is notified of their own action.
 */
export const NOTIFICATIONS_PER_TRANSACTION = 49;

/** The transaction items of one batch of notifications (distinct recipients), plus `extra` writes. */
export function notificationBatch(list: NewNotification[], extra: TransactItem[] = []): TransactItem[] {
  const at = new Date();
  return [...extra, ...list.flatMap((n) => notificationWrites(n, at).items)];
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
  for (const batch of batches) await transact(notificationBatch(batch));
}
