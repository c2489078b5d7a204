import { deleteEntry } from '../db/entity.ts';
import { bookmarksOfPostIndex, commentKey, postKey, repliesIndex, topCommentsIndex } from '../db/keys.ts';
import { deleteItem, type Item, isConditionFailure, queryAll, transact } from '../db/table.ts';
import type { CommentItem, PostItem, ReactionItem } from './model.ts';
import { type ScoreDelta, scoreWrites } from './scores.ts';

/**
 * What a deletion leaves behind, removed in the background (the feed's stream consumer) so the
 * request stays O(1): a deleted post's reactions, votes, comments and bookmarks; a deleted thread's
 * replies. What they gave the leaderboard is taken back in the same transaction as each removal, so
 * a redelivered record changes nothing twice. Cost: O(items removed), never on a request path.
 */
const ACTOR = 'system:cleanup';

/** Removes one item and takes back its score, unless a previous run already did. */
async function removeWithScore(key: { pk: string; sk: string }, score: ScoreDelta[]): Promise<void> {
  try {
    await transact([deleteEntry(key, { ConditionExpression: 'attribute_exists(pk)' }), ...scoreWrites(score, ACTOR)]);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

const commentScore = (c: CommentItem, postAuthorId: string): ScoreDelta[] =>
  c.authorId === postAuthorId ? [] : [{ userId: postAuthorId, at: c.createdAt, comments: -1 }];

async function removeComment(c: CommentItem, postAuthorId: string): Promise<void> {
  for (const vote of await queryAll<Item>({ pk: commentKey(c.id).pk, skPrefix: 'VOTE#' }))
    await deleteItem({ pk: vote.pk, sk: vote.sk });
  await removeWithScore(commentKey(c.id), commentScore(c, postAuthorId));
}

/** The replies of a deleted top-level comment. */
export async function cleanUpThread(top: CommentItem, postAuthorId: string | undefined): Promise<void> {
  const replies = await queryAll<CommentItem>({ index: repliesIndex.index, pk: repliesIndex.pk(top.id) });
  for (const r of replies) await removeComment(r, postAuthorId ?? r.authorId);
}

export async function cleanUpPost(post: PostItem): Promise<void> {
  for (const item of await queryAll<Item>({ pk: postKey(post.id).pk })) {
    const reaction = item.entity === 'PostReaction' ? (item as ReactionItem) : undefined;
    const counted = reaction?.reaction && reaction.reaction !== 'dislike' && reaction.userId !== post.authorId;
    await removeWithScore(
      { pk: item.pk, sk: item.sk },
      counted ? [{ userId: post.authorId, at: reaction.reactedAt ?? new Date().toISOString(), reactions: -1 }] : [],
    );
  }
  for (const top of await queryAll<CommentItem>({ index: topCommentsIndex.index, pk: topCommentsIndex.pk(post.id) })) {
    await cleanUpThread(top, post.authorId);
    await removeComment(top, post.authorId);
  }
  for (const b of await queryAll<Item>({ index: bookmarksOfPostIndex.index, pk: bookmarksOfPostIndex.pk(post.id) }))
    await deleteItem({ pk: b.pk, sk: b.sk });
}
