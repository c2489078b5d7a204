import { entity } from '../db/entity.ts';
import {
  bookmarksOfPostIndex,
  closingPollsIndex,
  commentKey,
  commentVoteKey,
  followKey,
  postKey,
  postListKey,
  postLists,
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

/** A person's bookmark: an entry of their own post list, and on gsi1 under the post (its clean-up after a delete). */
export interface BookmarkItem {
  pk: string;
  sk: string;
  entity: 'Bookmark';
  list: string;
  postId: string;
  userId: string;
  actorId: string;
  createdAt: string;
}
export const Bookmark = entity<BookmarkItem, [userId: string, postId: string]>({
  name: 'Bookmark',
  key: (userId, postId) => postListKey(postLists.bookmarks(userId), postId),
  keyOf: (b) => [b.userId, b.postId],
  indexes: [
    {
      index: bookmarksOfPostIndex.index,
      pk: (b) => bookmarksOfPostIndex.pk(b.postId),
      sk: (b) => bookmarksOfPostIndex.sk(b.userId),
    },
  ],
});

/** That a person follows another. */
export interface FollowItem {
  pk: string;
  sk: string;
  entity: 'Follow';
  userId: string;
  followingId: string;
  actorId: string;
  createdAt: string;
}
export const Follow = entity<FollowItem, [userId: string, followingId: string]>({
  name: 'Follow',
  key: followKey,
  keyOf: (f) => [f.userId, f.followingId],
});
