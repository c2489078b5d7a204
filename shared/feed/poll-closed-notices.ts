import { page } from '../db/paging.ts';
import { isConditionFailure } from '../db/table.ts';
import type { NewNotification } from '../notifications/notifications.ts';
import { NOTIFICATIONS_PER_TRANSACTION } from '../notifications/notify-many.ts';
import { deliverPush } from '../push/delivery.ts';
import { PollClosedNotice, type PollClosedNoticeItem, PollVote, Post } from './entities.ts';
import { recordNoticePage } from './notice-pages.ts';
import { postPreview } from './notify.ts';

/**
 * Telling a closed poll's voters (`poll_closed`). A poll may have as many voters as the company has
 * people, so neither the author's close nor the closing sweep tells them: each writes the poll's
 * closing notice in the transaction that closes it (so there is exactly one per poll), and the feed
 * fan-out consumer, reached by the notice's INSERT through the table's stream, sends it.
 *
 * Exactly once: the votes are read a page at a time, and each page's notifications are recorded in
 * one transaction with the notice's progress (next step and cursor), conditional on the step read.
 * When the sender fails, the stream delivers the record again and the next attempt goes on from the
 * recorded step; a page can never be recorded twice.
 */

/** A new closing notice; `closedBy` is the author closing early, or null when the poll closed by time. */
export const pollClosedNotice = (postId: string, closedBy: string | null, at: string) =>
  PollClosedNotice.item({ postId, closedBy, step: 0, cursor: null, sent: 0, createdAt: at });

/** One fewer than a transaction's notifications: the last page may also carry the author's. */
const VOTES_PER_PAGE = NOTIFICATIONS_PER_TRANSACTION - 1;

/** The fan-out's filter for closing notices: new ones only (progress writes are MODIFY). */
export const pollClosedNoticeFilter: Record<string, unknown> = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { entity: { S: [PollClosedNotice.name] } } },
};

/**
 * Records the notice's remaining pages. Throws when a write fails (the stream retries the record);
 * stops quietly when the notice is done or another attempt recorded the page first.
 */
export async function sendPollClosedNotice(postId: string): Promise<void> {
  let notice = await PollClosedNotice.get({ postId }, { consistent: true });
  const post = await Post.get({ id: postId }, { consistent: true });
  if (!notice || notice.doneAt) return;
  if (!post?.poll) {
    // The post was deleted since: nobody is to be told of its poll any more.
    await recordPage(notice, [], null).catch((err) => (isConditionFailure(err) ? undefined : Promise.reject(err)));
    return;
  }
  const preview = post.poll.question ? { preview: post.poll.question } : await postPreview(post);
  while (notice && !notice.doneAt) {
    const votes = await PollVote.query(
      { key: { postId }, consistent: true },
      page({ limit: VOTES_PER_PAGE, cursor: notice.cursor ?? undefined }),
    );
    // The author is told once, with the last page, whether or not they voted; nobody of their own close.
    const done = votes.nextCursor === null;
    const ids = votes.items.map((v) => v.userId).filter((id) => id !== post.authorId);
    if (done) ids.push(post.authorId);
    const notes: NewNotification[] = ids
      .filter((id) => id !== notice!.closedBy)
      .map((recipientId) => ({ recipientId, kind: 'poll_closed', actorId: null, postId, ...preview }));
    try {
      notice = await recordPage(notice, notes, votes.nextCursor);
    } catch (err) {
      if (isConditionFailure(err)) return; // another attempt recorded this page: it goes on from there
      throw err;
    }
    await deliverPush(notes);
  }
}

/** Records one page's notifications with the notice's progress (notice-pages.ts); answers the notice as it now is. */
const recordPage = (notice: PollClosedNoticeItem, notes: NewNotification[], nextCursor: string | null) =>
  recordNoticePage((parts) => PollClosedNotice.update({ postId: notice.postId }, parts), notice, notes, {
    done: nextCursor === null,
    cursor: nextCursor,
  });
