import type { Rule } from '../audiences/rule.ts';
import { type EntityItem, entity, shape } from '../db/entity.ts';
import type { DocumentRef, PageProgress, PollItem, Reaction, RecognitionCategory, RenditionName } from './model.ts';
import { type ScoreTotals, scoreOf } from './score-formula.ts';

/**
 * The feed's entities (docs/data-model.md, Feed), each declared once: its fields, key and index
 * templates. Post ids (and comment ids) are time-sortable, so "newest first" is descending id order
 * everywhere. A post's partition holds the post, its counters, and one item per reaction and per poll
 * vote (and its website record, shared/website/entities.ts).
 */

/** A post; on the closing-polls index (gsi1, sparse, by closing time) while its poll's closing is still to be announced. */
export const Post = entity({
  name: 'Post',
  fields: shape<{
    id: string;
    authorId: string;
    content: string;
    tags: string[];
    images: string[];
    videos: string[];
    documents: DocumentRef[];
    poll: PollItem | null;
    recognition: { recipientId: string; category: RecognitionCategory; message: string } | null;
    isAnnouncement: boolean;
    hidden: boolean;
    sharedPostId: string | null;
    /** The people mentioned when the body was last written (who was already told). */
    mentionedIds: string[];
    createdAt: string;
    updatedAt: string;
    editedAt: string | null;
    actorId: string;
    /** Moved by every write of the post item: read-modify-write changes (edit, delete) are conditional on it. */
    rev: number;
    /** Set by the poll sweep once the closing was announced (author and voters notified). */
    pollClosedNotifiedAt?: string;
    /**
     * Set by releases before the announcement notice (`AnnouncementNotice`) when they claimed sending an
     * announcement; still read, so a redelivered record of such a post is not sent twice. No longer written.
     */
    announcedAt?: string;
    /**
     * A must-read announcement (docs/must-read.md): people must acknowledge it, by `dueAt` when set.
     * Absent on every other post. Set at creation only (an edit keeps it).
     */
    acknowledgement?: { required: true; dueAt: string | null };
    /**
     * A targeted post (docs/audiences.md, "Targeted content"): the audience its author gave, a named
     * audience's `id` or a `rule`, and `dynamic`. Absent on every other post (the whole company). Set at
     * creation only; who may read it is frozen in the background (`PostAudience`, `PostReader`).
     */
    audience?: PostAudienceInput;
  }>(),
  key: { pk: ['POST', 'id'], sk: ['POST'] },
  indexes: {
    /** Polls whose closing is still to be announced, by closing time (UTC ISO, fixed width). */
    closingPolls: {
      index: 'gsi1',
      pk: ['POLLS_CLOSING'],
      sk: [(p) => p.poll?.closesAt, 'id'],
      when: (p) => !!p.poll && !p.poll.closedAt && !p.pollClosedNotifiedAt,
    },
  },
});
export type PostItem = EntityItem<typeof Post>;

/** What a targeted post's `post.created` event says of it (shared/feed/change-events.ts). */
export interface PostCreatedFields {
  authorId: string;
  isAnnouncement: boolean;
  isRecognition: boolean;
  hasPoll: boolean;
}

/** The audience of a targeted post as its author gave it (the route's `audience`). */
export interface PostAudienceInput {
  id?: string;
  rule?: Rule;
  dynamic?: boolean;
}

/**
 * A targeted post's audience as frozen (docs/audiences.md, "Targeted content"), written with the post:
 * the rule it was published to (a named audience's rule copied at publish: a later change of the
 * audience changes nothing), who joined the company at or before `cutoff` counting, and the progress
 * of the background pass (company-fan-out) that records each member as a `PostReader`, page by page
 * in people-id order (`cursor`: the last id recorded). A `dynamic` one is on the following index
 * (gsi1, sparse) until `followUntil`: a person who joins its audience later is added then.
 */
export const PostAudience = entity({
  name: 'PostAudience',
  fields: shape<
    PageProgress & {
      postId: string;
      authorId: string;
      rule: Rule;
      audienceId: string | null;
      dynamic: boolean;
      cutoff: string;
      cursor: string | null;
      /** Dynamic only: later joiners are added until this instant (publish + 90 days). */
      followUntil?: string;
      /** The `post.created` event's fields, sent to the readers once they are recorded. */
      created?: PostCreatedFields;
    }
  >(),
  key: { pk: ['POST', 'postId'], sk: ['AUDIENCE'] },
  indexes: {
    following: {
      index: 'gsi1',
      pk: ['DYNAMIC_AUDIENCES'],
      sk: ['followUntil', 'postId'],
      when: (a) => a.dynamic && !!a.followUntil,
    },
  },
});
export type PostAudienceItem = EntityItem<typeof PostAudience>;

/**
 * One person who may read a targeted post (its frozen audience, docs/audiences.md): in the post's
 * partition (the members, by id) and on the person's timeline (gsi1, by post id: newest first), which
 * the feed merges with the whole company's list. `how`: `author` (written with the post), `publish`
 * (the background pass at publish), `joined` (a later joiner of a dynamic audience).
 */
export const PostReader = entity({
  name: 'PostReader',
  fields: shape<{
    postId: string;
    userId: string;
    how: 'author' | 'publish' | 'joined';
    addedAt: string;
    /** A joiner's only: the `post.created` event's fields, sent to them alone. */
    created?: PostCreatedFields;
  }>(),
  key: { pk: ['POST', 'postId'], sk: ['READER', 'userId'] },
  indexes: { timeline: { index: 'gsi1', pk: ['TIMELINE', 'userId'], sk: ['postId'] } },
});
export type PostReaderItem = EntityItem<typeof PostReader>;

/** A post's counters (reactions per kind, comments, shares, poll tallies), apart from the body so counter traffic never rewrites it. */
export const PostStats = entity({
  name: 'PostStats',
  fields: shape<{
    postId: string;
    reactions: Record<Reaction, number>;
    reactionTotal: number;
    commentCount: number;
    shareCount: number;
    /** Votes per poll option id. */
    tallies: Record<string, number>;
    pollTotal: number;
    actorId: string;
    /** A targeted post's (its change events go to its readers only). */
    targeted?: boolean;
  }>(),
  key: { pk: ['POST', 'postId'], sk: ['STATS'] },
});
export type PostStatsItem = EntityItem<typeof PostStats>;

/**
 * A poll's closing notice: the claim and progress of telling a closed poll's voters. Written in the
 * transaction that closes the poll, so exactly one closing (the author's or the sweep's) has one; the
 * feed fan-out records a page of notifications at a time together with `step` and `cursor`.
 */
export const PollClosedNotice = entity({
  name: 'PollClosedNotice',
  fields: shape<
    PageProgress & {
      postId: string;
      /** Who closed it (not told of their own act); null when it closed by time (the author is told too). */
      closedBy: string | null;
      /** The cursor of the next page of votes (null before the first). */
      cursor: string | null;
    }
  >(),
  key: { pk: ['POST', 'postId'], sk: ['POLL_CLOSED'] },
});
export type PollClosedNoticeItem = EntityItem<typeof PollClosedNotice>;

/**
 * An announcement's progress: created by the feed fan-out when the announcement's INSERT arrives; each
 * page of the members index is recorded with `step` and `cursor` in one transaction, so a redelivery
 * goes on from the last recorded page.
 */
export const AnnouncementNotice = entity({
  name: 'AnnouncementNotice',
  fields: shape<
    PageProgress & {
      postId: string;
      /** Members who joined at or before this instant (the post's creation) are the audience. */
      cutoff: string;
      /** The cursor of the next page of members (null before the first). */
      cursor: string | null;
    }
  >(),
  key: { pk: ['POST', 'postId'], sk: ['ANNOUNCEMENT'] },
});
export type AnnouncementNoticeItem = EntityItem<typeof AnnouncementNotice>;

/**
 * A must-read announcement's state (docs/must-read.md), written with the post: its exact counts
 * (moved in the transaction of every per-person item's change), who joins (people who become active
 * until `joinUntil`) and the progress of the background pass that adds everybody active at posting
 * (`cutoff`), page by page. On the joinable index (gsi1) by `joinUntil`: a joiner is added to the
 * must-reads whose `joinUntil` is still ahead (O(open must-reads), no Scan).
 */
export const MustRead = entity({
  name: 'MustRead',
  fields: shape<
    PageProgress & {
      postId: string;
      authorId: string;
      dueAt: string | null;
      /** People who become active before this instant are added (dueAt, or 30 days after posting). */
      joinUntil: string;
      /** Members who joined at or before this instant (the post's creation) are the first audience. */
      cutoff: string;
      /** The cursor of the next page of members (null before the first). */
      cursor: string | null;
      acknowledged: number;
      pending: number;
      /** Set once joinUntil passed (must-read-reminders.ts): off the joinable index, which so holds only open ones. */
      joinClosedAt?: string;
      /** A targeted must-read (docs/audiences.md): its people are its frozen readers, joiners only through a dynamic audience. */
      targeted?: boolean;
    }
  >(),
  key: { pk: ['POST', 'postId'], sk: ['MUST_READ'] },
  indexes: {
    /** Must-reads still open to joiners, by joinUntil (sparse: the schedule takes closed ones off). */
    joinable: { index: 'gsi1', pk: ['MUST_READ_JOINABLE'], sk: ['joinUntil', 'postId'], when: (m) => !m.joinClosedAt },
  },
});
export type MustReadItem = EntityItem<typeof MustRead>;

/**
 * One person's part in a must-read announcement: pending until they acknowledge it. On the post's
 * people index by status (gsi1, the super admins' lists) and, while pending, on the person's owed
 * index (gsi2, sparse: `GET /users/me/must-read`, and what a deactivation drops).
 */
export const MustReadAck = entity({
  name: 'MustReadAck',
  fields: shape<{
    postId: string;
    userId: string;
    status: 'pending' | 'acknowledged';
    addedAt: string;
    acknowledgedAt: string | null;
  }>(),
  key: { pk: ['MUST_READ', 'postId'], sk: ['USER', 'userId'] },
  indexes: {
    byStatus: { index: 'gsi1', pk: ['MUST_READ_PEOPLE', 'postId', 'status'], sk: ['userId'] },
    owed: { index: 'gsi2', pk: ['MUST_READ_OWED', 'userId'], sk: ['postId'], when: (a) => a.status === 'pending' },
  },
});
export type MustReadAckItem = EntityItem<typeof MustReadAck>;

/**
 * The reminder of a must-read announcement with a `dueAt`: on the reminders index (gsi1, sparse) by
 * `remindAt` until sent; the schedule records a page of the still-pending people at a time with
 * `step` and `cursor` (each person reminded once).
 */
export const MustReadReminder = entity({
  name: 'MustReadReminder',
  fields: shape<
    PageProgress & {
      postId: string;
      remindAt: string;
      dueAt: string;
      /** The cursor of the next page of pending people (null before the first). */
      cursor: string | null;
    }
  >(),
  key: { pk: ['POST', 'postId'], sk: ['MUST_READ_REMINDER'] },
  indexes: {
    due: { index: 'gsi1', pk: ['MUST_READ_REMINDERS'], sk: ['remindAt', 'postId'], when: (r) => !r.doneAt },
  },
});
export type MustReadReminderItem = EntityItem<typeof MustReadReminder>;

/** A person's reaction to a post. */
export const PostReaction = entity({
  name: 'PostReaction',
  fields: shape<{
    postId: string;
    userId: string;
    /** Absent once taken back: the item stays to remember that the author was already notified. */
    reaction?: Reaction;
    /** When the reaction now held was first given (the leaderboard day it counts on). */
    reactedAt?: string;
    actorId: string;
  }>(),
  key: { pk: ['POST', 'postId'], sk: ['REACT', 'userId'] },
});
export type PostReactionItem = EntityItem<typeof PostReaction>;

/**
 * A person's vote in a post's poll, with the voter's name and picture as they were when they voted
 * (`name`, `image`): the closed poll's voters are listed from the votes alone, with no read of a
 * profile. Absent on votes of 0.3.0 and earlier (their voters' profiles are read, those only) and
 * removed by an erasure with the voter's id (shared/data-rights/erasure.ts).
 */
export const PollVote = entity({
  name: 'PollVote',
  fields: shape<{
    postId: string;
    userId: string;
    optionId: string;
    votedAt: string;
    actorId: string;
    name?: string;
    image?: string | null;
  }>(),
  key: { pk: ['POST', 'postId'], sk: ['VOTE', 'userId'] },
});
export type PollVoteItem = EntityItem<typeof PollVote>;

/**
 * A comment or reply. gsi1: a top-level comment is listed under its post (`topLevel`), a reply under
 * its thread (`replies`), oldest first by id.
 */
export const Comment = entity({
  name: 'Comment',
  fields: shape<{
    id: string;
    postId: string;
    /** The top-level comment of the thread; null for a top-level comment. */
    parentId: string | null;
    authorId: string;
    content: string;
    mentionedIds: string[];
    likeCount: number;
    dislikeCount: number;
    replyCount: number;
    /** People who replied in this thread (top-level comments only): who gets `reply` notifications. */
    repliers?: Set<string>;
    createdAt: string;
    editedAt: string | null;
    actorId: string;
    /** Hidden by moderation (docs/moderation.md): off its lists, 404 to all but its author and super admins. */
    hidden?: boolean;
    /** On a targeted post (its change events go to the post's readers only). */
    targeted?: boolean;
  }>(),
  key: { pk: ['COMMENT', 'id'], sk: ['COMMENT'] },
  indexes: {
    /** A post's top-level comments (hidden ones left out). */
    topLevel: { index: 'gsi1', pk: ['COMMENTS', 'postId'], sk: ['id'], when: (c) => !c.parentId && !c.hidden },
    /** A thread's replies (a reply's `parentId` is its top-level comment; hidden ones left out). */
    replies: { index: 'gsi1', pk: ['REPLIES', 'parentId'], sk: ['id'], when: (c) => !!c.parentId && !c.hidden },
  },
});
export type CommentItem = EntityItem<typeof Comment>;

/**
 * A reply's notice: the claim and progress of telling a reply's thread, written in the transaction
 * that records the reply (exactly one per reply); the feed fan-out records a page of notifications at
 * a time together with `step`. The audience is fixed when the reply is written (the thread's people
 * then), so every attempt computes the same pages.
 */
export const ReplyNotice = entity({
  name: 'ReplyNotice',
  fields: shape<
    {
      commentId: string;
      postId: string;
      /** The people the reply mentions (told `mention`). */
      mentioned: string[];
      /** The thread's starter, then its earlier repliers (told `reply`). */
      thread: string[];
    } & PageProgress
  >(),
  key: { pk: ['COMMENT', 'commentId'], sk: ['REPLY_NOTICE'] },
});

/** A person's like or dislike of a comment. */
export const CommentVote = entity({
  name: 'CommentVote',
  fields: shape<{ commentId: string; postId: string; userId: string; vote: 'like' | 'dislike'; actorId: string }>(),
  key: { pk: ['COMMENT', 'commentId'], sk: ['VOTE', 'userId'] },
});

/**
 * A person's bookmark: an entry of their own post list (`list` = `BOOKMARKS#<userId>`, post-lists.ts),
 * and on gsi1 under the post (its clean-up after a delete).
 */
export const Bookmark = entity({
  name: 'Bookmark',
  fields: shape<{ list: string; postId: string; userId: string; actorId: string; createdAt: string }>(),
  key: { pk: ['POSTS', 'BOOKMARKS', 'userId'], sk: ['postId'] },
  indexes: {
    /** Who bookmarked a post. */
    byPost: { index: 'gsi1', pk: ['BOOKMARKED', 'postId'], sk: ['userId'] },
  },
});

/**
 * That a person follows another (a person's follows are bounded by the company's size); on gsi1 under
 * the followed person, so a new post reaches its author's followers' lists (following-lists.ts).
 */
export const Follow = entity({
  name: 'Follow',
  fields: shape<{ userId: string; followingId: string; actorId: string; createdAt: string }>(),
  key: { pk: ['FOLLOWS', 'userId'], sk: ['followingId'] },
  indexes: {
    /** Who follows a person (0.4.0; migration 0012-following-lists). */
    byFollowed: { index: 'gsi1', pk: ['FOLLOWERS', 'followingId'], sk: ['userId'] },
  },
});
export type FollowItem = EntityItem<typeof Follow>;

/**
 * A post in the list of one of its author's followers (`?following=true`, following-lists.ts): one
 * partition per follower, sk = post id, kept by the `following-lists` stream consumer from the author's
 * list entries and the follows. Derived data: deleted with the follow or the post.
 */
export const FollowedPost = entity({
  name: 'FollowedPost',
  fields: shape<{ userId: string; postId: string; authorId: string; actorId: string }>(),
  key: { pk: ['FOLLOWED', 'userId'], sk: ['postId'] },
});

/**
 * A post's entry in one of the lists it is on (post-lists.ts, lists.ts): one partition per list (the
 * whole feed, an author, a tag, a type, a recognition recipient), sk = post id. Written, moved and
 * removed with the post, so a list page is one Query; hidden and deleted posts have no entries.
 */
export const PostListEntry = entity({
  name: 'PostListEntry',
  fields: shape<{ list: string; postId: string; actorId: string }>(),
  key: { pk: ['POSTS', 'list'], sk: ['postId'] },
});
export type PostListEntryItem = EntityItem<typeof PostListEntry>;

export type UploadKind = 'image' | 'document' | 'video';
export interface StoredRendition {
  key: string;
  width: number;
  height: number;
}

/** An uploaded file of a post (uploads.ts): its owner, type and renditions; the bytes are in the bucket under `posts/<id>/`. */
export const PostUpload = entity({
  name: 'PostUpload',
  fields: shape<{
    id: string;
    ownerId: string;
    kind: UploadKind;
    mimeType: string;
    name: string;
    sizeBytes: number;
    width: number | null;
    height: number | null;
    /** The original's object key. */
    objectKey: string;
    renditions: Partial<Record<RenditionName, StoredRendition>>;
    /** `awaiting`: a presigned upload whose bytes have not been seen in the bucket yet. */
    status: 'ready' | 'awaiting';
    createdAt: string;
    actorId: string;
  }>(),
  key: { pk: ['UPLOAD', 'id'], sk: ['UPLOAD'] },
});
export type PostUploadItem = EntityItem<typeof PostUpload>;

/**
 * A person's all-time feed score, with their account: on the leaderboard (gsi6, by score) and the
 * contributors' list (gsi7, by posts). Moved in place with ADD (scores.ts), but declared with its
 * fields because its index attributes are derived from them: both sort keys are linear in the
 * counters, so the ADD of their value for a delta keeps them equal to their value for the totals.
 */
export const FeedScore = entity({
  name: 'FeedScore',
  fields: shape<ScoreTotals & { userId: string; actorId?: string }>(),
  key: { pk: ['USER', 'userId'], sk: ['FEED_SCORE'] },
  indexes: {
    leaderboard: { index: 'gsi6', pk: ['LEADERBOARD'], sk: [(s) => scoreOf(s)] },
    contributors: { index: 'gsi7', pk: ['CONTRIBUTORS'], sk: ['posts'] },
  },
});
export type FeedScoreItem = EntityItem<typeof FeedScore>;

/**
 * A person's feed score of one UTC day (the leaderboard of a period sums a day's partition), moved in
 * place with ADD. Every move also sets `changedAt` (and its UTC day), which puts the item on gsi1
 * `SCORE_CHANGES#<changedDay>` by `changedAt`: what changed since a period's top list was built
 * (leaderboard.ts). Sparse: items last moved before 0.4 are not on it (no top list predates them).
 */
export const FeedScoreDay = entity({
  name: 'FeedScoreDay',
  fields: shape<
    ScoreTotals & {
      userId: string;
      day: string;
      score: number;
      actorId?: string;
      changedAt?: string;
      changedDay?: string;
    }
  >(),
  key: { pk: ['FEED_SCORES', 'day'], sk: ['userId'] },
  indexes: {
    changes: {
      index: 'gsi1',
      pk: ['SCORE_CHANGES', 'changedDay'],
      sk: ['changedAt', 'userId', 'day'],
      when: (s) => !!s.changedAt && !!s.changedDay,
    },
  },
  inPlace: true,
});

/**
 * A period's top list (`week` or `month`, the window ending on `day`), kept in the background
 * (leaderboard.ts): the highest period tallies, `rows` of `[userId, reactions, comments, shares, posts]`
 * (at most TOP_ROWS and the tie at the cut after a sweep, FOLD_MAX_ROWS between, never more than
 * TOP_MAX_ROWS), and `floor`, an upper bound on the score of anybody not on it (0: nobody scores
 * without a row). The stream consumer `leaderboard-fold` folds every score change into it; a request
 * reads it and the few day items changed since the last fold, so its reads do not grow with the company.
 * `sweep`, while the `leaderboard-top` schedule reads the window's day partitions again in pages (a
 * rebuild, resumable): the people up to `after` (by key order) have been read, and those of them without
 * a row score at most `sweep.floor`; done, `floor` becomes `sweep.floor`.
 * TTL removes it a few days after its window.
 */
export const LeaderboardTop = entity({
  name: 'LeaderboardTop',
  fields: shape<{
    period: 'week' | 'month';
    day: string;
    days: string[];
    builtAt: string;
    floor: number;
    rows: [string, number, number, number, number][];
    ttl: number;
    /** Moved by every write (build or fold): a fold writes on the revision it read. Absent before 0.5. */
    rev?: number;
    /** When the score changes were last folded in (the build's `builtAt` until then). */
    foldedAt?: string;
    /** Set by a fold when too few rows score above `floor` to answer a page: the schedule sweeps it. */
    stale?: boolean;
    /** A sweep of the day partitions under way (see above); `after` absent: none read yet. */
    sweep?: { from: string; floor: number; after?: string };
  }>(),
  key: { pk: ['LEADERBOARD_TOP', 'period'], sk: ['day'] },
});

/**
 * One person's post uploads of one UTC day (shared/feed/upload-quota.ts): `uploads` and `bytes` move
 * with ADD, under the quota's condition, in the same transaction as the upload's record. TTL removes
 * it a day after its day ended.
 */
export const UploadQuota = entity({
  name: 'UploadQuota',
  fields: shape<{ userId: string; day: string; uploads: number; bytes: number; ttl: number }>(),
  key: { pk: ['UPLOADQUOTA', 'userId', 'day'], sk: ['QUOTA'] },
  inPlace: true,
});

/**
 * A post scheduled for later (docs/scheduled-posts.md): the author's input as sent, kept until its
 * moment, then written as a post (posts.ts createPost) with this id, its schedule removed in the same
 * transaction. Nobody but its author sees it; it is on no list, and the change feed does not map it.
 * A post that cannot be published at its moment (its recognition's recipient left, its author lost
 * the right to announce) stays with `failure` set, off the due index, for its author to see.
 */
export const ScheduledPost = entity({
  name: 'ScheduledPost',
  fields: shape<{
    /** The post's id once published (sorts by `publishAt`). */
    id: string;
    authorId: string;
    /** The body as the author sent it (PostInput), attachments as verified when scheduled. */
    input: {
      content?: string;
      images?: string[];
      videos?: string[];
      documents?: DocumentRef[];
      poll?: { question: string; description?: string; options: string[]; closesAt: string };
      recognition?: { recipientId: string; category: RecognitionCategory; message?: string };
      isAnnouncement?: boolean;
      /** A must-read announcement's requirement (docs/must-read.md). */
      acknowledgement?: { required: true; dueAt?: string | null };
      /** A targeted post's audience (docs/audiences.md): frozen when it publishes. */
      audience?: PostAudienceInput;
    };
    publishAt: string;
    createdAt: string;
    updatedAt: string;
    failure: string | null;
    rev: number;
  }>(),
  key: { pk: ['SCHEDULED', 'id'], sk: ['SCHEDULED'] },
  indexes: {
    /** The author's scheduled posts, soonest first. */
    byAuthor: { index: 'gsi1', pk: ['SCHEDULED_BY', 'authorId'], sk: ['publishAt', 'id'] },
    /** Those still to publish, by moment: the publishing schedule's queue (left when published or failed). */
    due: { index: 'gsi2', pk: ['SCHEDULED_DUE'], sk: ['publishAt', 'id'], when: (p) => p.failure === null },
  },
});
export type ScheduledPostItem = EntityItem<typeof ScheduledPost>;
