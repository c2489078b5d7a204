import { isConditionFailure, write } from '../db/table.ts';
import { invalid, notFound } from '../errors.ts';
import { getUser } from '../people/users.ts';
import { Bookmark, Follow } from './entities.ts';
import type { Viewer } from './people.ts';
import { postLists } from './post-lists.ts';
import { readablePost } from './posts.ts';

/**
 * Bookmarks and follows: personal, idempotent (PUT twice is one bookmark), announced to
 * the person only (bookmark.updated, follow.updated). A bookmark is an entry in the person's own post
 * list, so `?bookmarked=true` pages like any list.
 */
const ignoreCondition = (err: unknown) => (isConditionFailure(err) ? undefined : Promise.reject(err));

export async function bookmark(caller: Viewer, postId: string): Promise<void> {
  await readablePost(caller, postId);
  await write(
    Bookmark.create({
      list: postLists.bookmarks(caller.userId),
      postId,
      userId: caller.userId,
      actorId: caller.userId,
      createdAt: new Date().toISOString(),
    }),
  ).catch(ignoreCondition);
}

/** Removes a bookmark; works for a post deleted since. 404 only when neither exists. */
export async function unbookmark(caller: Viewer, postId: string): Promise<void> {
  const existing = await Bookmark.get({ userId: caller.userId, postId }, { consistent: true });
  if (!existing) {
    await readablePost(caller, postId);
    return;
  }
  await write(Bookmark.remove({ userId: caller.userId, postId }));
}

async function followable(caller: Viewer, userId: string) {
  if (userId === caller.userId) throw invalid(['You cannot follow yourself.']);
  if (!(await getUser(userId))) throw notFound('No such person.');
}

export async function follow(caller: Viewer, userId: string): Promise<void> {
  if (userId === caller.userId) throw invalid(['You cannot follow yourself.']);
  // Nobody follows a person whose erasure started (issue 33: the erasure's door): as if gone (read
  // consistently, so an erasure that deleted the profile is seen). A follow that read the profile
  // before the start and lands later is found by the erasure's second walk.
  const person = await getUser(userId, true);
  if (!person || person.erasureId) throw notFound('No such person.');
  await write(
    Follow.create({
      userId: caller.userId,
      followingId: userId,
      actorId: caller.userId,
      createdAt: new Date().toISOString(),
    }),
  ).catch(ignoreCondition);
}

export async function unfollow(caller: Viewer, userId: string): Promise<void> {
  await followable(caller, userId);
  await write(Follow.remove({ userId: caller.userId, followingId: userId }));
}
