import { ABSENT } from '../db/entity.ts';
import { page } from '../db/paging.ts';
import { isConditionFailure, retryOnConflict, transact } from '../db/table.ts';
import { conflict, notFound } from '../errors.ts';
import { type MentionView, mentionIn } from '../people/person-views.ts';
import { getUsers } from '../people/users.ts';
import { MustRead, MustReadAck, type PostItem } from './entities.ts';
import type { Viewer } from './people.ts';
import { type PostView, postViews } from './post-view.ts';
import { getPosts, readablePost } from './posts.ts';

/**
 * Must-read announcements (docs/must-read.md): a super admin's announcement that people must
 * acknowledge. The post's `MustRead` item holds the exact counts; each person's part is a
 * `MustReadAck` item, pending until acknowledged, and every change of one moves the counts in the
 * same transaction. Who must acknowledge is added in the background (must-read-audience.ts); the
 * reminders before `dueAt` are sent by a schedule (must-read-reminders.ts).
 */

/** Not a must-read: 409 (the post exists, it asks for nothing). */
const notMustRead = () => conflict('This post does not ask for acknowledgement.');

/**
 * Acknowledges a must-read (idempotent: a second call changes nothing). Anybody who can read the post
 * may: a pending part becomes acknowledged, or (not yet added, or never in the audience) an
 * acknowledged part is created; the counts move in the same transaction. 404 unknown post, 409 a post
 * that asks for no acknowledgement.
 */
export async function acknowledge(viewer: Viewer, postId: string): Promise<PostItem> {
  const post = await readablePost(viewer, postId, true);
  if (!post.acknowledgement) throw notMustRead();
  const userId = viewer.userId;
  await retryOnConflict(async () => {
    const before = await MustReadAck.get({ postId, userId }, { consistent: true });
    if (before?.status === 'acknowledged') return;
    const now = new Date().toISOString();
    const after = MustReadAck.item({
      postId,
      userId,
      status: 'acknowledged',
      addedAt: before?.addedAt ?? now,
      acknowledgedAt: now,
    });
    await transact([
      before
        ? MustReadAck.change(before, after, {
            ConditionExpression: '#ackStatus = :pending',
            ExpressionAttributeNames: { '#ackStatus': 'status' },
            ExpressionAttributeValues: { ':pending': 'pending' },
          })
        : MustReadAck.put(after, ABSENT),
      MustRead.add({ postId }, before ? { acknowledged: 1, pending: -1 } : { acknowledged: 1 }, { mustExist: true }),
    ]);
  }).catch(async (err) => {
    // The post went meanwhile (its state with it): as for any post that is gone.
    if (isConditionFailure(err) && !(await MustRead.get({ postId }, { consistent: true })))
      throw notFound('No such post.');
    throw err;
  });
  return post;
}

/**
 * What I still owe, newest announcement first: one Query of my owed index, one batch read of the
 * posts and the views' fixed batch reads (O(page)). A post deleted or hidden since is left out (its
 * clean-up removes the part in the background), so a page may hold fewer than `limit`.
 */
export async function listOwed(
  viewer: Viewer,
  limit: number,
  cursor?: string,
): Promise<{ items: PostView[]; nextCursor: string | null }> {
  const found = await MustReadAck.query(
    { index: 'owed', key: { userId: viewer.userId }, forward: false },
    page({ limit, cursor, scope: `must-read|${viewer.userId}` }),
  );
  const posts = await getPosts(found.items.map((a) => a.postId));
  const shown = found.items
    .map((a) => posts.get(a.postId))
    .filter((p): p is PostItem => !!p && !p.hidden && !!p.acknowledgement);
  return { items: await postViews(viewer, shown), nextCursor: found.nextCursor };
}

export interface AcknowledgementsPage {
  items: { person: MentionView; acknowledgedAt: string | null }[];
  nextCursor: string | null;
  acknowledged: number;
  pending: number;
}

/**
 * The people of a must-read with one status (super admins), by id, paged: one Query and one batch
 * read of the people; the totals are the counts kept with every change (exact). 404 unknown post,
 * 409 one that asks for no acknowledgement.
 */
export async function listAcknowledgements(
  viewer: Viewer,
  postId: string,
  status: 'pending' | 'acknowledged',
  limit: number,
  cursor?: string,
): Promise<AcknowledgementsPage> {
  const post = await readablePost(viewer, postId);
  if (!post.acknowledgement) throw notMustRead();
  const [state, found] = await Promise.all([
    MustRead.get({ postId }, { consistent: true }),
    MustReadAck.query(
      { index: 'byStatus', key: { postId, status } },
      page({ limit, cursor, scope: `acknowledgements|${postId}|${status}` }),
    ),
  ]);
  const users = await getUsers(found.items.map((a) => a.userId));
  return {
    items: found.items.map((a) => ({ person: mentionIn(users, a.userId), acknowledgedAt: a.acknowledgedAt })),
    nextCursor: found.nextCursor,
    acknowledged: Math.max(0, state?.acknowledged ?? 0),
    pending: Math.max(0, state?.pending ?? 0),
  };
}
