import type { UpdateParts } from '../db/entity.ts';
import type { TransactItem } from '../db/table.ts';
import type { NewNotification } from '../notifications/notifications.ts';
import { transactNotifications } from '../notifications/notify-many.ts';

/**
 * The progress the feed fan-out keeps on a notice it sends page by page (a reply's thread, an
 * announcement): pages recorded so far (`step`), where the next page starts when the audience is read
 * from a query (`cursor`), notifications recorded (`sent`) and when it finished (`doneAt`).
 */
export interface NoticeProgress {
  step: number;
  cursor?: string | null;
  sent: number;
  doneAt?: string;
}

/**
 * Records one page's notifications (distinct recipients, at most NOTIFICATIONS_PER_TRANSACTION) and
 * the notice's next progress in one transaction, conditional on the step read: a page is recorded
 * exactly once however many attempts race for it or however often the stream redelivers. Throws the
 * condition failure when another attempt recorded it first (the caller stops: that one goes on).
 * Answers the notice as it now is.
 */
export async function recordNoticePage<N extends NoticeProgress>(
  update: (parts: UpdateParts) => TransactItem,
  notice: N,
  notes: NewNotification[],
  next: { done: boolean; cursor?: string | null },
): Promise<N> {
  const now = new Date().toISOString();
  const sets = ['#step = :next', '#sent = #sent + :n'];
  if (next.cursor !== undefined) sets.push('#cursor = :cursor');
  if (next.done) sets.push('doneAt = :now');
  const progress = update({
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: '#step = :step AND attribute_not_exists(doneAt)',
    ExpressionAttributeNames: {
      '#step': 'step',
      '#sent': 'sent',
      ...(next.cursor !== undefined ? { '#cursor': 'cursor' } : {}),
    },
    ExpressionAttributeValues: {
      ':next': notice.step + 1,
      ':n': notes.length,
      ':step': notice.step,
      ...(next.cursor !== undefined ? { ':cursor': next.cursor } : {}),
      ...(next.done ? { ':now': now } : {}),
    },
  });
  await transactNotifications(notes, [progress]);
  return {
    ...notice,
    step: notice.step + 1,
    sent: notice.sent + notes.length,
    ...(next.cursor !== undefined ? { cursor: next.cursor } : {}),
    ...(next.done ? { doneAt: now } : {}),
  };
}
