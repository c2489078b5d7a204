import type { UpdateParts } from '../db/entity.ts';
import { isConditionFailure } from '../db/table.ts';
import type { NewNotification } from '../notifications/notifications.ts';
import { NOTIFICATIONS_PER_TRANSACTION } from '../notifications/notify-many.ts';
import { deliverPush } from '../push/delivery.ts';
import { Comment, type CommentItem, Post, ReplyNotice } from './entities.ts';
import { recordNoticePage } from './notice-pages.ts';
import { commentPreview, commentRecipients } from './notify.ts';

/**
 * Telling a reply's thread (`reply`, with the reply's `mention`s and the post author's `comment`). A
 * thread may have as many repliers as the company has people, so the reply request does not tell
 * them: it writes the reply's notice in the transaction that records the reply (so there is exactly
 * one per reply), and the feed fan-out consumer, reached by the notice's INSERT through the table's
 * stream, sends it.
 *
 * Exactly once: the recipients are a fixed list computed from the notice (commentRecipients), sent a
 * page at a time; each page's notifications are recorded in one transaction with the notice's next
 * step, conditional on the step read (notice-pages.ts). A redelivered record, or a second attempt
 * after a crash, goes on from the recorded step.
 */

/** A new reply's notice: `thread` is the thread's starter and the people who replied before. */
export function replyNotice(c: CommentItem, mentioned: string[], thread: string[]) {
  return ReplyNotice.item({
    commentId: c.id,
    postId: c.postId,
    mentioned,
    // Sorted after the starter, so the stored list does not depend on a set's iteration order.
    thread: thread.length ? [thread[0], ...[...new Set(thread.slice(1))].sort()] : [],
    step: 0,
    sent: 0,
    createdAt: c.createdAt,
  });
}

/** The fan-out's filter for reply notices: new ones only (progress writes are MODIFY). */
export const replyNoticeFilter: Record<string, unknown> = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { entity: { S: [ReplyNotice.name] } } },
};

const PAGE = NOTIFICATIONS_PER_TRANSACTION;

/**
 * Records the notice's remaining pages. Throws when a write fails (the stream retries the record);
 * stops quietly when the notice is done or another attempt recorded the page first.
 */
export async function sendReplyNotice(commentId: string): Promise<void> {
  let notice = await ReplyNotice.get({ commentId }, { consistent: true });
  if (!notice || notice.doneAt) return;
  const comment = await Comment.get({ id: commentId }, { consistent: true });
  const post = comment && (await Post.get({ id: comment.postId }, { consistent: true }));
  const update = (parts: UpdateParts) => ReplyNotice.update({ commentId }, parts);
  try {
    if (!comment || !post) {
      // The reply (or its post) was deleted since: nobody is to be told of it any more.
      await recordNoticePage(update, notice, [], { done: true });
      return;
    }
    const recipients = commentRecipients(post.authorId, comment.authorId, notice.mentioned, notice.thread);
    const preview = await commentPreview(comment);
    while (!notice.doneAt) {
      const from: number = notice.step * PAGE;
      const notes: NewNotification[] = recipients.slice(from, from + PAGE).map(({ recipientId, kind }) => ({
        recipientId,
        kind,
        actorId: comment.authorId,
        postId: post.id,
        commentId,
        ...preview,
      }));
      notice = await recordNoticePage(update, notice, notes, { done: from + PAGE >= recipients.length });
      await deliverPush(notes);
    }
  } catch (err) {
    if (isConditionFailure(err)) return; // another attempt recorded this page (or the reply is gone)
    throw err;
  }
}
