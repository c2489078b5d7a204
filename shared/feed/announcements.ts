import type { UpdateParts } from '../db/entity.ts';
import { page as pageOf } from '../db/paging.ts';
import { isConditionFailure, write } from '../db/table.ts';
import type { NewNotification } from '../notifications/notifications.ts';
import { NOTIFICATIONS_PER_TRANSACTION } from '../notifications/notify-many.ts';
import { User } from '../people/entities.ts';
import { deliverPush } from '../push/delivery.ts';
import { AnnouncementNotice, type AnnouncementNoticeItem, Post, type PostItem, PostReader } from './entities.ts';
import { recordNoticePage } from './notice-pages.ts';
import { type Preview, postPreview } from './notify.ts';

/**
 * Telling everybody of an announcement (`announcement`): O(company) notifications, so the feed
 * fan-out consumer sends them when the post's INSERT arrives, never the request.
 *
 * Exactly once, and resumable: the first attempt creates the post's announcement notice (a
 * conditional put; a later attempt finds it and goes on from it). The audience is every member who
 * joined at or before the post was written (`cutoff`) and is not deactivated, but the author, read a
 * page at a time from the members index (a targeted announcement's: its frozen readers, docs/audiences.md); each page's notifications are recorded in one transaction
 * with the notice's next step and page cursor, conditional on the step read (notice-pages.ts). A
 * sender that dies partway leaves its progress recorded; the stream's redelivery goes on from the
 * next page, and a page is never recorded twice.
 */

/** The notice a post's first announcement attempt creates. */
export const announcementNotice = (post: PostItem, at: string) =>
  AnnouncementNotice.item({ postId: post.id, cutoff: post.createdAt, step: 0, cursor: null, sent: 0, createdAt: at });

/** The post's notice, created by the first attempt; undefined when there is nothing (more) to send. */
export async function claimAnnouncement(post: PostItem): Promise<AnnouncementNoticeItem | undefined> {
  try {
    await write(AnnouncementNotice.create(announcementNotice(post, new Date().toISOString())), {
      returnValues: 'NONE',
    });
  } catch (err) {
    if (!isConditionFailure(err)) throw err; // else an earlier attempt created it: go on from its progress
  }
  const notice = await AnnouncementNotice.get({ postId: post.id }, { consistent: true });
  return notice?.doneAt ? undefined : notice;
}

/**
 * Records the next page of the audience with the notice's progress; answers the notice as it now is.
 * Throws a condition failure when another attempt recorded this page first.
 */
export async function sendAnnouncementPage(
  post: PostItem,
  notice: AnnouncementNoticeItem,
  preview: string | Preview,
  pageSize = NOTIFICATIONS_PER_TRANSACTION,
): Promise<AnnouncementNoticeItem> {
  const page = post.audience
    ? await PostReader.query(
        {
          key: { postId: post.id },
          filter: { FilterExpression: 'userId <> :author', ExpressionAttributeValues: { ':author': post.authorId } },
        },
        pageOf({ limit: pageSize, cursor: notice.cursor ?? undefined }),
      ).then((p) => ({ ids: p.items.map((r) => r.userId), nextCursor: p.nextCursor }))
    : await User.query(
        {
          index: 'members',
          key: {},
          // sk `<joinedAt>#<id>`; '$' follows '#', so `< cutoff$` keeps joinedAt <= cutoff.
          skBefore: `${notice.cutoff}$`,
          filter: {
            FilterExpression: '#status <> :deactivated AND id <> :author',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':deactivated': 'deactivated', ':author': post.authorId },
          },
        },
        pageOf({ limit: pageSize, cursor: notice.cursor ?? undefined }),
      ).then((p) => ({ ids: p.items.map((u) => u.id), nextCursor: p.nextCursor }));
  const notes: NewNotification[] = page.ids.map((id) => ({
    recipientId: id,
    kind: 'announcement',
    actorId: post.authorId,
    postId: post.id,
    ...(typeof preview === 'string' ? { preview } : preview),
  }));
  const update = (parts: UpdateParts) => AnnouncementNotice.update({ postId: post.id }, parts);
  const next = await recordNoticePage(update, notice, notes, {
    done: page.nextCursor === null,
    cursor: page.nextCursor,
  });
  await deliverPush(notes);
  return next;
}

/**
 * Sends what is left of a post's announcement. Throws when a write fails (the stream retries the
 * record); stops quietly when it is done, the post is gone, or another attempt recorded a page first.
 */
export async function announce(postId: string, pageSize = NOTIFICATIONS_PER_TRANSACTION): Promise<void> {
  const post = await Post.get({ id: postId }, { consistent: true });
  // Gone since (its clean-up removes the notice), or claimed by a release before the notice existed.
  if (!post?.isAnnouncement || post.announcedAt) return;
  let notice = await claimAnnouncement(post);
  if (!notice) return;
  const preview = await postPreview(post);
  try {
    while (!notice.doneAt) notice = await sendAnnouncementPage(post, notice, preview, pageSize);
  } catch (err) {
    if (isConditionFailure(err)) return; // another attempt recorded this page: it goes on from there
    throw err;
  }
}
