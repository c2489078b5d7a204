import { Post } from '../feed/entities.ts';
import type { Viewer } from '../feed/people.ts';
import { companyValuesOf } from '../people/company-values.ts';
import { User } from '../people/entities.ts';
import { audienceIdOf, seeable } from './audience-seam.ts';
import { PostSeen } from './entities.ts';
import { type MarkEntry, recordMarks } from './marks.ts';

/** At most this many posts a call. */
export const SEEN_MAX = 100;

/**
 * `POST /posts/seen` (docs/reach.md): the posts a client showed its person. Reads, in parallel, the
 * posts, the person's marks on them and their profile (two batch reads of ≤ 100 keys and one Get),
 * then records the first `seen` of each post not seen before in transactions of 14 (marks.ts): at most
 * 8 transactions for 100 new posts, none for posts already seen (a repeated call writes nothing).
 * Ignored without a word: a post that does not exist (any more), a hidden one, one the person may not
 * see, and their own. Answers how many marks were new (the handler answers 204).
 */
export async function recordSeen(viewer: Viewer, postIds: string[]): Promise<number> {
  const ids = [...new Set(postIds)];
  const [posts, marks, user] = await Promise.all([
    Post.getMany(ids.map((id) => ({ id }))),
    PostSeen.getMany(ids.map((postId) => ({ postId, userId: viewer.userId }))),
    User.get({ id: viewer.userId }),
  ]);
  if (!user) return 0;
  const values = companyValuesOf(user);
  const at = new Date().toISOString();
  const entries: MarkEntry[] = [];
  const mine = await seeable(
    viewer,
    posts.filter((p) => p !== undefined),
  );
  posts.forEach((post, i) => {
    if (!post || post.hidden || post.authorId === viewer.userId || marks[i]?.seenAt) return;
    if (!mine.has(post.id)) return;
    entries.push({
      post: { postId: post.id, publishedAt: post.createdAt, audienceId: audienceIdOf(post) },
      userId: viewer.userId,
      values,
      mark: 'seen',
      at,
    });
  });
  return recordMarks(entries);
}
