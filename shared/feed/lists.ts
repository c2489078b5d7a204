import type { TransactItem } from '../db/table.ts';
import { type PostItem, PostListEntry } from './entities.ts';
import { postLists } from './post-lists.ts';

/**
 * The lists a post is on, derived from the post alone: hidden posts are on none (left
 * out of every list for everybody), nor are targeted ones (their readers' timelines, audience.ts). Bookmarks are the reader's own lists and are not derived.
 */
export function listsOf(
  p: Pick<PostItem, 'authorId' | 'tags' | 'isAnnouncement' | 'recognition' | 'poll' | 'hidden'> &
    Partial<Pick<PostItem, 'audience'>>,
): string[] {
  // A targeted post is on its readers' timelines only (docs/audiences.md), never on a list everybody reads.
  if (p.hidden || p.audience) return [];
  return [
    postLists.all,
    postLists.author(p.authorId),
    ...p.tags.map(postLists.tag),
    ...(p.isAnnouncement ? [postLists.type('announcement')] : []),
    ...(p.recognition ? [postLists.type('recognition'), postLists.recognized(p.recognition.recipientId)] : []),
    ...(p.poll ? [postLists.type('poll')] : []),
  ];
}

/** The writes that move a post's list entries from what `before` was on to what `after` is on. */
export function listWrites(postId: string, before: string[], after: string[], actorId: string): TransactItem[] {
  return [
    ...before.filter((l) => !after.includes(l)).map((l) => PostListEntry.remove({ list: l, postId })),
    ...after.filter((l) => !before.includes(l)).map((list) => PostListEntry.put({ list, postId, actorId })),
  ];
}
