import { type Condition, PRESENT } from '../db/entity.ts';
import { isConditionFailure, type TransactItem, write } from '../db/table.ts';
import {
  AnnouncementNotice,
  Bookmark,
  Comment,
  type CommentItem,
  CommentVote,
  MustRead,
  MustReadAck,
  MustReadReminder,
  PollVote,
  PostAudience,
  type PostItem,
  PostReaction,
  PostReader,
} from './entities.ts';
import { type ScoreDelta, scoreWrites, transactScored } from './scores.ts';

/**
 * What a deletion leaves behind, removed in the background (the feed's stream consumer) so the
 * request stays O(1): a deleted post's reactions, votes, comments and bookmarks; a deleted thread's
 * replies. What they gave the leaderboard is taken back in the same transaction as each removal, so
 * a redelivered record changes nothing twice; a targeted post's readers' items (O(its audience)). Cost: O(items removed), never on a request path.
 */
const ACTOR = 'system:cleanup';

/** Removes one item (its entity's removal) and takes back its score, unless a previous run already did. */
async function removeWithScore(removal: (condition: Condition) => TransactItem, score: ScoreDelta[]): Promise<void> {
  try {
    await transactScored([removal(PRESENT), ...scoreWrites(score, ACTOR)]);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

const commentScore = (c: CommentItem, postAuthorId: string): ScoreDelta[] =>
  c.authorId === postAuthorId ? [] : [{ userId: postAuthorId, at: c.createdAt, comments: -1 }];

async function removeComment(c: CommentItem, postAuthorId: string): Promise<void> {
  for (const vote of await CommentVote.queryAll({ key: { commentId: c.id } })) await write(CommentVote.remove(vote));
  await removeWithScore((cond) => Comment.remove(c, cond), commentScore(c, postAuthorId));
}

/** The replies of a deleted top-level comment. */
export async function cleanUpThread(top: CommentItem, postAuthorId: string | undefined): Promise<void> {
  const replies = await Comment.queryAll({ index: 'replies', key: { parentId: top.id } });
  for (const r of replies) await removeComment(r, postAuthorId ?? r.authorId);
}

export async function cleanUpPost(post: PostItem): Promise<void> {
  for (const reaction of await PostReaction.queryAll({ key: { postId: post.id } })) {
    const counted = reaction.reaction && reaction.reaction !== 'dislike' && reaction.userId !== post.authorId;
    await removeWithScore(
      (cond) => PostReaction.remove(reaction, cond),
      counted ? [{ userId: post.authorId, at: reaction.reactedAt ?? new Date().toISOString(), reactions: -1 }] : [],
    );
  }
  for (const vote of await PollVote.queryAll({ key: { postId: post.id } })) await write(PollVote.remove(vote));
  for (const top of await Comment.queryAll({ index: 'topLevel', key: { postId: post.id } })) {
    await cleanUpThread(top, post.authorId);
    await removeComment(top, post.authorId);
  }
  for (const b of await Bookmark.queryAll({ index: 'byPost', key: { postId: post.id } }))
    await write(Bookmark.remove(b));
  // An announcement's progress goes with it (a later redelivery finds no post and sends nothing).
  if (post.isAnnouncement) await write(AnnouncementNotice.remove({ postId: post.id }));
  // A targeted post's frozen audience: its state first (the readers' pass stops), then every reader's
  // item, off their timelines (docs/audiences.md).
  if (post.audience) {
    await write(PostAudience.remove({ postId: post.id }));
    for (const r of await PostReader.queryAll({ key: { postId: post.id } })) await write(PostReader.remove(r));
  }
  // A must-read's state first (nobody is added or counted after it), then every person's part.
  if (post.acknowledgement) {
    await write(MustRead.remove({ postId: post.id }));
    await write(MustReadReminder.remove({ postId: post.id }));
    for (const part of await MustReadAck.queryAll({ key: { postId: post.id } })) await write(MustReadAck.remove(part));
  }
}
