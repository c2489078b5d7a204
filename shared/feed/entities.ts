import { entity } from '../db/entity.ts';
import {
  closingPollsIndex,
  commentKey,
  commentVoteKey,
  postKey,
  postReactionKey,
  postStatsKey,
  postVoteKey,
  repliesIndex,
  topCommentsIndex,
} from '../db/keys.ts';
import type { CommentItem, CommentVoteItem, PostItem, PostStatsItem, ReactionItem, VoteItem } from './model.ts';

/** The feed's entities (docs/data-model.md, Feed): each item's key and index attributes, declared once. */

/** A post; on the closing-polls index (sparse) while its poll's closing is still to be announced. */
export const Post = entity<PostItem, [postId: string]>({
  name: 'Post',
  key: postKey,
  keyOf: (p) => [p.id],
  indexes: [
    {
      index: closingPollsIndex.index,
      pk: (p) => (p.poll && !p.poll.closedAt && !p.pollClosedNotifiedAt ? closingPollsIndex.pk : undefined),
      sk: (p) =>
        p.poll && !p.poll.closedAt && !p.pollClosedNotifiedAt ? closingPollsIndex.sk(p.poll.closesAt, p.id) : undefined,
    },
  ],
});

/** A post's counters, apart from its body. */
export const PostStats = entity<PostStatsItem, [postId: string]>({
  name: 'PostStats',
  key: postStatsKey,
  keyOf: (s) => [s.postId],
});

export const PostReaction = entity<ReactionItem, [postId: string, userId: string]>({
  name: 'PostReaction',
  key: postReactionKey,
  keyOf: (r) => [r.postId, r.userId],
});

export const PollVote = entity<VoteItem, [postId: string, userId: string]>({
  name: 'PollVote',
  key: postVoteKey,
  keyOf: (v) => [v.postId, v.userId],
});

/** A comment: a top-level one is listed under its post, a reply under its thread (gsi1). */
export const Comment = entity<CommentItem, [commentId: string]>({
  name: 'Comment',
  key: commentKey,
  keyOf: (c) => [c.id],
  indexes: [
    {
      index: topCommentsIndex.index,
      pk: (c) => (c.parentId ? repliesIndex.pk(c.parentId) : topCommentsIndex.pk(c.postId)),
      sk: (c) => topCommentsIndex.sk(c.id),
    },
  ],
});

export const CommentVote = entity<CommentVoteItem, [commentId: string, userId: string]>({
  name: 'CommentVote',
  key: commentVoteKey,
  keyOf: (v) => [v.commentId, v.userId],
});
