import { getUser } from '../people/users.ts';
import { Post, type PostItem, PostReader } from './entities.ts';
import type { Viewer } from './people.ts';

/**
 * Who may read a targeted post (docs/audiences.md): a leaf of the feed, so the live stream's function
 * carries only this (audience.ts writes what it reads).
 */

/**
 * Whether a person may read a post: every post without an audience; a targeted one, its author,
 * super admins and its frozen audience (one GetItem). `role` read from the profile when not given.
 */
export async function mayRead(post: PostItem | string, userId: string, role?: Viewer['role']): Promise<boolean> {
  const p = typeof post === 'string' ? await Post.get({ id: post }) : post;
  if (!p) return false;
  if (!p.audience || p.authorId === userId) return true;
  const r = role ?? (await getUser(userId))?.role;
  if (r === 'super_admin') return true;
  return !!(await PostReader.get({ postId: p.id, userId }));
}

/** Which of these people are among a targeted post's readers (one batch read), in the order given. */
export async function readersAmong(postId: string, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const found = await PostReader.getMany(userIds.map((userId) => ({ postId, userId })));
  return new Set(userIds.filter((_, i) => found[i]));
}

/** Which of these posts a viewer may read (one batch read of their reader items for the targeted ones). */
export async function readableOf(viewer: Viewer, posts: PostItem[]): Promise<Set<string>> {
  const out = new Set<string>();
  const ask: PostItem[] = [];
  for (const p of posts) {
    if (!p.audience || viewer.role === 'super_admin' || p.authorId === viewer.userId) out.add(p.id);
    else ask.push(p);
  }
  if (ask.length) {
    const found = await PostReader.getMany(ask.map((p) => ({ postId: p.id, userId: viewer.userId })));
    ask.forEach((p, i) => {
      if (found[i]) out.add(p.id);
    });
  }
  return out;
}
