import { type Condition, PRESENT } from '../db/entity.ts';
import {
  bookmarksOfPostIndex,
  postReactionsPrefix,
  postVotesPrefix,
  repliesIndex,
  topCommentsIndex,
} from '../db/keys.ts';
import { isConditionFailure, queryAll, type TransactItem, transact, write } from '../db/table.ts';
import {
  AnnouncementNotice,
  Bookmark,
  type BookmarkItem,
  Comment,
  CommentVote,
  PollVote,
  PostReaction,
} from './entities.ts';
import type { CommentItem, CommentVoteItem, PostItem, ReactionItem, VoteItem } from './model.ts';
import { type ScoreDelta, scoreWrites } from './scores.ts';

/**
 * What a deletion leaves behind, removed in the background (the feed's stream consumer) so the
 * request stays O(1): a deleted post's reactions, votes, comments and bookmarks; a deleted thread's
 * replies. What they gave the leaderboard is taken back in the same transaction as each removal, so
 * a redelivered record changes nothing twice. Cost: O(items removed), never on a request path.
 */
const ACTOR = 'system:cleanup';

/** Removes one item (its entity's removal) and takes back its score, unless a previous run already did. */
async function removeWithScore(removal: (condition: Condition) => TransactItem, score: ScoreDelta[]): Promise<void> {
  try {
    await transact([removal(PRESENT), ...scoreWrites(score, ACTOR)]);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

const commentScore = (c: CommentItem, postAuthorId: string): ScoreDelta[] =>
  c.authorId === postAuthorId ? [] : [{ userId: postAuthorId, at: c.createdAt, comments: -1 }];

async function removeComment(c: CommentItem, postAuthorId: string): Promise<void> {
  for (const vote of await queryAll<CommentVoteItem>({ pk: Comment.key(c.id).pk, skPrefix: 'VOTE#' }))
    await write(CommentVote.remove([c.id, vote.userId]));
  await removeWithScore((cond) => Comment.remove([c.id], cond), commentScore(c, postAuthorId));
}

/** The replies of a deleted top-level comment. */
export async function cleanUpThread(top: CommentItem, postAuthorId: string | undefined): Promise<void> {
  const replies = await queryAll<CommentItem>({ index: repliesIndex.index, pk: repliesIndex.pk(top.id) });
  for (const r of replies) await removeComment(r, postAuthorId ?? r.authorId);
}

export async function cleanUpPost(post: PostItem): Promise<void> {
  for (const reaction of await queryAll<ReactionItem>(postReactionsPrefix(post.id))) {
    const counted = reaction.reaction && reaction.reaction !== 'dislike' && reaction.userId !== post.authorId;
    await removeWithScore(
      (cond) => PostReaction.remove([post.id, reaction.userId], cond),
      counted ? [{ userId: post.authorId, at: reaction.reactedAt ?? new Date().toISOString(), reactions: -1 }] : [],
    );
  }
  for (const vote of await queryAll<VoteItem>(postVotesPrefix(post.id)))
    await write(PollVote.remove([post.id, vote.userId]));
  for (const top of await queryAll<CommentItem>({ index: topCommentsIndex.index, pk: topCommentsIndex.pk(post.id) })) {
    await cleanUpThread(top, post.authorId);
    await removeComment(top, post.authorId);
  }
  for (const b of await queryAll<BookmarkItem>({
    index: bookmarksOfPostIndex.index,
    pk: bookmarksOfPostIndex.pk(post.id),
  }))
    await write(Bookmark.remove([b.userId, post.id]));
  // An announcement's progress goes with it (a later redelivery finds no post and sends nothing).
  if (post.isAnnouncement) await write(AnnouncementNotice.remove([post.id]));
}
