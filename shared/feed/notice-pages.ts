import type { UpdateParts } from '../db/entity.ts';
import type { TransactItem } from '../db/table.ts';
import type { NewNotification } from '../notifications/notifications.ts';
import { transactNotifications } from '../notifications/notify-many.ts';
import { nextPageOf, type PagedProgress } from './paged-progress.ts';

/** The progress the feed fan-out keeps on a notice it sends page by page (a reply's thread, an announcement). */
export type NoticeProgress = PagedProgress;

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
  const step = nextPageOf(notice, notes.length, { ...next, at: new Date().toISOString() });
  await transactNotifications(notes, [update(step.parts)]);
  return step.progress;
}
