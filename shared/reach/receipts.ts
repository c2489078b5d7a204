import { page } from '../db/paging.ts';
import { forbidden, notFound } from '../errors.ts';
import { Post } from '../feed/entities.ts';
import { looksLikeId } from '../feed/model.ts';
import type { Viewer } from '../feed/people.ts';
import { type MentionView, mentionIn } from '../people/person-views.ts';
import { getUsers } from '../people/users.ts';
import { PostSeen, ReadReceiptChoice } from './entities.ts';
import { reachSettings } from './settings.ts';

/**
 * Read receipts (issue 48 item 5; docs/reach.md): while the company has them on, a post's author may
 * list who has seen it, newest first. Never for anonymous content: the feed has none (the grievance
 * channel's items are never posts and keep no marks). A person
 * who opted out is left out of every list (they still count in the totals): a page is one Query of the
 * post's seen-by index, one batch read of those people's choices and one of their profiles (O(page)),
 * and may hold fewer than `limit` when some opted out.
 */
export async function seenBy(
  viewer: Viewer,
  postId: string,
  p: { limit: number; cursor?: string },
): Promise<{ items: { person: MentionView; seenAt: string }[]; nextCursor: string | null }> {
  const post = looksLikeId(postId) ? await Post.get({ id: postId }) : undefined;
  if (!post || (post.hidden && post.authorId !== viewer.userId)) throw notFound('No such post.');
  if (post.authorId !== viewer.userId) throw forbidden("Only a post's author sees who has seen it.");
  if (!(await reachSettings()).readReceipts) throw forbidden('Read receipts are off in this company.');
  const found = await PostSeen.query(
    { index: 'seenBy', key: { postId }, forward: false },
    page({ limit: p.limit, cursor: p.cursor, scope: `seen-by|${postId}` }),
  );
  const ids = found.items.map((s) => s.userId);
  const [choices, users] = await Promise.all([
    ReadReceiptChoice.getMany(ids.map((userId) => ({ userId }))),
    getUsers(ids),
  ]);
  const items = found.items.flatMap((s, i) =>
    choices[i]?.optedOut || !s.seenAt ? [] : [{ person: mentionIn(users, s.userId), seenAt: s.seenAt }],
  );
  return { items, nextCursor: found.nextCursor };
}
