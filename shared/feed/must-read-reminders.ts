import type { UpdateParts } from '../db/entity.ts';
import { page as pageOf } from '../db/paging.ts';
import { isConditionFailure, transact, write } from '../db/table.ts';
import { indexKeys } from '../db/table-definition.ts';
import { type NewNotification, previewOf } from '../notifications/notifications.ts';
import { NOTIFICATIONS_PER_TRANSACTION } from '../notifications/notify-many.ts';
import { getUsers } from '../people/users.ts';
import { deliverPush } from '../push/delivery.ts';
import { emailTransport } from '../transports/email.ts';
import { MustRead, MustReadAck, MustReadReminder, type MustReadReminderItem, Post, type PostItem } from './entities.ts';
import { recordNoticePage } from './notice-pages.ts';
import { type Preview, postPreview } from './notify.ts';

/**
 * The reminders of must-read announcements before their `dueAt` (docs/must-read.md). A schedule
 * reads the reminders due (the sparse reminders index by `remindAt`: O(due reminders), no Scan) and,
 * for each whose first audience is complete, tells the people still pending a page at a time: a
 * `must_read` notification (pushed) and an e-mail. Each page's notifications are recorded with the
 * reminder's next step and cursor in one transaction, conditional on the step read
 * (notice-pages.ts), so each person is reminded once per announcement; the last page takes the
 * reminder off the index. The people are read in id order from the post's pending list: somebody
 * who acknowledges meanwhile is simply not met, a joiner past the cursor is.
 */

/** Reminders taken per run (the rest wait for the next run). */
const REMINDERS_PER_RUN = 20;

const reminderEmail = (to: string, post: PostItem, preview: string) => ({
  to,
  subject: 'Reminder: an announcement needs your acknowledgement',
  body: [
    `Please read and acknowledge this announcement by ${post.acknowledgement?.dueAt ?? 'soon'}:`,
    '',
    preview,
    '',
    `Open it: /feed#post-${post.id}`,
  ].join('\n'),
});

/**
 * Records the next page of a reminder and sends its push and e-mail; answers the reminder as it now
 * is. Throws a condition failure when another attempt recorded this page first.
 */
export async function sendReminderPage(
  post: PostItem,
  reminder: MustReadReminderItem,
  preview: Preview,
  pageSize = NOTIFICATIONS_PER_TRANSACTION,
): Promise<MustReadReminderItem> {
  const found = await MustReadAck.query(
    { index: 'byStatus', key: { postId: post.id, status: 'pending' } },
    pageOf({ limit: pageSize, cursor: reminder.cursor ?? undefined }),
  );
  const notes: NewNotification[] = found.items.map((a) => ({
    recipientId: a.userId,
    kind: 'must_read',
    actorId: post.authorId,
    postId: post.id,
    ...preview,
  }));
  const done = found.nextCursor === null;
  const gsi = indexKeys('gsi1');
  // The last page also takes the reminder off the reminders index.
  const update = (parts: UpdateParts) =>
    MustReadReminder.update(
      { postId: post.id },
      done ? { ...parts, UpdateExpression: `${parts.UpdateExpression} REMOVE ${gsi.pk}, ${gsi.sk}` } : parts,
    );
  const next = await recordNoticePage(update, reminder, notes, { done, cursor: found.nextCursor });
  await deliverPush(notes);
  const people = await getUsers(notes.map((n) => n.recipientId));
  for (const n of notes) {
    const u = people.get(n.recipientId);
    // The preview (280 characters), as the notification carries: never the whole text by e-mail.
    if (u && u.status !== 'deactivated')
      await emailTransport().send(reminderEmail(u.email, post, previewOf(preview.preview)));
  }
  return next;
}

/** Takes a reminder with nothing (more) to send off the index. */
const retire = (postId: string) =>
  write(
    MustReadReminder.update(
      { postId },
      {
        UpdateExpression: `REMOVE ${indexKeys('gsi1').pk}, ${indexKeys('gsi1').sk}`,
        ConditionExpression: 'attribute_exists(pk)',
      },
    ),
    { returnValues: 'NONE' },
  ).catch((err) => (isConditionFailure(err) ? undefined : Promise.reject(err)));

/**
 * Sends the reminders due by `now`; answers how many people were reminded. A reminder whose
 * announcement is gone or hidden is retired; one whose first audience is still being added waits for the
 * next run.
 */
export async function sendDueMustReadReminders(now = new Date(), pageSize = NOTIFICATIONS_PER_TRANSACTION) {
  const due = await MustReadReminder.query(
    { index: 'due', key: {}, skBefore: `${now.toISOString()}$` },
    pageOf({ limit: REMINDERS_PER_RUN }),
  );
  let reminded = 0;
  for (let reminder of due.items) {
    const [post, state] = await Promise.all([
      Post.get({ id: reminder.postId }, { consistent: true }),
      MustRead.get({ postId: reminder.postId }, { consistent: true }),
    ]);
    // A hidden post (a moderator's or the reporters' decision) is no longer anybody's to read: its
    // reminders end with it, as a deleted one's do.
    if (!post || post.hidden || !state || reminder.doneAt) {
      await retire(reminder.postId);
      continue;
    }
    if (!state.doneAt) continue;
    const preview = await postPreview(post);
    try {
      while (!reminder.doneAt) {
        const before = reminder.sent;
        reminder = await sendReminderPage(post, reminder, preview, pageSize);
        reminded += reminder.sent - before;
      }
    } catch (err) {
      if (!isConditionFailure(err)) throw err; // else another run recorded this page: it goes on from there
    }
  }
  return reminded;
}

/**
 * Takes the must-reads whose joinUntil passed off the joinable index (a page a run), so the index's
 * partition holds only those still open to joiners and never grows with the years.
 */
export async function closeJoinWindows(now = new Date()): Promise<number> {
  const closed = await MustRead.query(
    { index: 'joinable', key: {}, skBefore: `${now.toISOString()}$` },
    pageOf({ limit: REMINDERS_PER_RUN }),
  );
  for (const m of closed.items) {
    await transact([
      MustRead.change(m, { ...m, joinClosedAt: now.toISOString() }, { ConditionExpression: 'attribute_exists(pk)' }),
    ]).catch((err) => (isConditionFailure(err) ? undefined : Promise.reject(err)));
  }
  return closed.items.length;
}
