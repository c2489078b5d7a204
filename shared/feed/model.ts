/** The stored shapes of the feed (see `docs/data-model.md`, Feed). */
export const REACTIONS = ['like', 'dislike', 'celebrate', 'support', 'love', 'insightful', 'funny'] as const;
export type Reaction = (typeof REACTIONS)[number];
export const RECOGNITION_CATEGORIES = [
  'teamwork',
  'innovation',
  'above_and_beyond',
  'leadership',
  'customer_focus',
  'learning',
] as const;
export type RecognitionCategory = (typeof RECOGNITION_CATEGORIES)[number];
export type PostType = 'announcement' | 'recognition' | 'poll';

export interface PollItem {
  question: string;
  description: string;
  options: { id: string; text: string }[];
  /** UTC ISO 8601 (fixed width, so it compares as a string). */
  closesAt: string;
  /** Set when the author closed it early. */
  closedAt: string | null;
}

export interface DocumentRef {
  url: string;
  name: string;
  mimeType: string;
  sizeBytes: number;
}

export interface PostItem {
  pk: string;
  sk: string;
  entity: 'Post';
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
}

export interface PostStatsItem {
  pk: string;
  sk: string;
  entity: 'PostStats';
  postId: string;
  reactions: Record<Reaction, number>;
  reactionTotal: number;
  commentCount: number;
  shareCount: number;
  /** Votes per poll option id. */
  tallies: Record<string, number>;
  pollTotal: number;
  actorId: string;
}

export interface ReactionItem {
  pk: string;
  sk: string;
  entity: 'PostReaction';
  postId: string;
  userId: string;
  /** Absent once taken back: the item stays to remember that the author was already notified. */
  reaction?: Reaction;
  /** When the reaction now held was first given (the leaderboard day it counts on). */
  reactedAt?: string;
  actorId: string;
}

/**
 * The claim and progress of telling a closed poll's voters (`PollClosedNotice`): written in the
 * transaction that closes the poll, so exactly one closing (the author's or the sweep's) has one;
 * the feed fan-out records a page of notifications at a time together with `step` and `cursor`.
 */
export interface PollClosedNoticeItem {
  pk: string;
  sk: string;
  entity: 'PollClosedNotice';
  postId: string;
  /** Who closed it (not told of their own act); null when it closed by time (the author is told too). */
  closedBy: string | null;
  /** Pages recorded so far, and the cursor of the next page of votes (null before the first). */
  step: number;
  cursor: string | null;
  sent: number;
  createdAt: string;
  doneAt?: string;
}

/**
 * The claim and progress of telling a reply's thread (`ReplyNotice`): written in the transaction that
 * records the reply, so there is exactly one per reply; the feed fan-out records a page of
 * notifications at a time together with `step`. The audience is fixed when the reply is written (the
 * thread's people then), so every attempt computes the same pages.
 */
export interface ReplyNoticeItem {
  pk: string;
  sk: string;
  entity: 'ReplyNotice';
  commentId: string;
  postId: string;
  /** The people the reply mentions (told `mention`). */
  mentioned: string[];
  /** The thread's starter, then its earlier repliers (told `reply`). */
  thread: string[];
  /** Pages recorded so far. */
  step: number;
  sent: number;
  createdAt: string;
  doneAt?: string;
}

/**
 * The claim and progress of telling everybody of an announcement (`AnnouncementNotice`): created by
 * the feed fan-out when the announcement's INSERT arrives; each page of the members index is recorded
 * with `step` and `cursor` in one transaction, so a redelivery goes on from the last recorded page.
 */
export interface AnnouncementNoticeItem {
  pk: string;
  sk: string;
  entity: 'AnnouncementNotice';
  postId: string;
  /** Members who joined at or before this instant (the post's creation) are the audience. */
  cutoff: string;
  step: number;
  cursor: string | null;
  sent: number;
  createdAt: string;
  doneAt?: string;
}

export interface VoteItem {
  pk: string;
  sk: string;
  entity: 'PollVote';
  postId: string;
  userId: string;
  optionId: string;
  votedAt: string;
  actorId: string;
}

export interface CommentItem {
  pk: string;
  sk: string;
  entity: 'Comment';
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
}

export interface CommentVoteItem {
  pk: string;
  sk: string;
  entity: 'CommentVote';
  commentId: string;
  postId: string;
  userId: string;
  vote: 'like' | 'dislike';
  actorId: string;
}

export const zeroReactions = (): Record<Reaction, number> =>
  Object.fromEntries(REACTIONS.map((r) => [r, 0])) as Record<Reaction, number>;

/** Posts are time-sortable ids; this is what the API and every list accept as one. */
export const looksLikeId = (id: string) => /^[0-9a-z]{22}$/.test(id);
