import { entity } from '../db/entity.ts';
import {
  announcementNoticeKey,
  bookmarksOfPostIndex,
  closingPollsIndex,
  commentKey,
  commentVoteKey,
  contributorsIndex,
  feedScoreDayKey,
  feedScoreKey,
  followKey,
  leaderboardIndex,
  pollClosedNoticeKey,
  postKey,
  postListKey,
  postLists,
  postReactionKey,
  postStatsKey,
  postUploadKey,
  postVoteKey,
  repliesIndex,
  replyNoticeKey,
  topCommentsIndex,
  uploadQuotaKey,
} from '../db/keys.ts';
import type {
  AnnouncementNoticeItem,
  CommentItem,
  CommentVoteItem,
  PollClosedNoticeItem,
  PostItem,
  PostStatsItem,
  ReactionItem,
  ReplyNoticeItem,
  VoteItem,
} from './model.ts';
import { scoreOf } from './scores.ts';
import type { UploadItem } from './uploads.ts';

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

/** A poll's closing notice: written with the closing, its voters told page by page by the feed fan-out. */
export const PollClosedNotice = entity<PollClosedNoticeItem, [postId: string]>({
  name: 'PollClosedNotice',
  key: pollClosedNoticeKey,
  keyOf: (n) => [n.postId],
});

/** An announcement's progress: created by the feed fan-out, everybody told page by page. */
export const AnnouncementNotice = entity<AnnouncementNoticeItem, [postId: string]>({
  name: 'AnnouncementNotice',
  key: announcementNoticeKey,
  keyOf: (n) => [n.postId],
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

/** A reply's notice: written with the reply, its thread told page by page by the feed fan-out. */
export const ReplyNotice = entity<ReplyNoticeItem, [commentId: string]>({
  name: 'ReplyNotice',
  key: replyNoticeKey,
  keyOf: (n) => [n.commentId],
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

/** A post's entry in one of the lists it is on (lists.ts): written, moved and removed with the post. */
export interface PostListEntryItem {
  pk: string;
  sk: string;
  entity: 'PostListEntry';
  list: string;
  postId: string;
  actorId: string;
}
export const PostListEntry = entity<PostListEntryItem, [list: string, postId: string]>({
  name: 'PostListEntry',
  key: postListKey,
  keyOf: (e) => [e.list, e.postId],
});

/** An uploaded file of a post (uploads.ts): its owner, type and renditions. */
export const PostUpload = entity<UploadItem, [uploadId: string]>({
  name: 'PostUpload',
  key: postUploadKey,
  keyOf: (u) => [u.id],
});

/** What a person's feed score counts (scores.ts). */
export interface ScoreTotals {
  reactions: number;
  comments: number;
  shares: number;
  posts: number;
}

/**
 * A person's all-time feed score: on the leaderboard (gsi6, by score) and the contributors' list (gsi7,
 * by posts). Only ever moved in place with ADD (scores.ts), but declared with its fields because its
 * index attributes are derived from them: both sort keys are linear in the counters, so the ADD of
 * their value for a delta keeps them equal to their value for the totals.
 */
export interface FeedScoreItem extends ScoreTotals {
  pk: string;
  sk: string;
  entity: 'FeedScore';
  userId: string;
  actorId?: string;
}
export const FeedScore = entity<FeedScoreItem, [userId: string]>({
  name: 'FeedScore',
  key: feedScoreKey,
  keyOf: (s) => [s.userId],
  indexes: [
    { index: leaderboardIndex.index, pk: () => leaderboardIndex.pk, sk: (s) => scoreOf(s) },
    { index: contributorsIndex.index, pk: () => contributorsIndex.pk, sk: (s) => s.posts },
  ],
});

/** A person's feed score of one day (the leaderboard of a period sums these), moved in place with ADD. */
export interface FeedScoreDayItem extends ScoreTotals {
  pk: string;
  sk: string;
  entity: 'FeedScoreDay';
  userId: string;
  day: string;
  score: number;
  actorId?: string;
}
export const FeedScoreDay = entity<FeedScoreDayItem, [day: string, userId: string]>({
  name: 'FeedScoreDay',
  key: feedScoreDayKey,
});

/**
 * One person's post uploads of one UTC day (shared/feed/upload-quota.ts): `uploads` and `bytes` move
 * with ADD, under the quota's condition, in the same transaction as the upload's record. TTL removes
 * it a day after its day ended.
 */
export interface UploadQuotaItem {
  pk: string;
  sk: string;
  entity: 'UploadQuota';
  userId: string;
  day: string;
  uploads: number;
  bytes: number;
  ttl: number;
}
export const UploadQuota = entity<UploadQuotaItem, [userId: string, day: string]>({
  name: 'UploadQuota',
  key: uploadQuotaKey,
});
