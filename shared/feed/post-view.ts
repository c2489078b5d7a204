import { getMany, keyString } from '../db/table.ts';
import { type MentionView, mentionIn } from '../people/person-views.ts';
import { getUsers, type UserItem } from '../people/users.ts';
import {
  Bookmark,
  MustRead,
  MustReadAck,
  PollVote,
  type PollVoteItem,
  Post,
  type PostAudienceInput,
  type PostItem,
  PostReaction,
  type PostReactionItem,
  PostStats,
  type PostStatsItem,
} from './entities.ts';
import { type PollItem, REACTIONS, type Reaction, type RecognitionCategory, zeroReactions } from './model.ts';
import { type AcknowledgementContext, type AcknowledgementView, acknowledgementView } from './must-read-model.ts';
import { isPrivileged, resolveMentions, type Viewer } from './people.ts';
import { mentionIds } from './text.ts';

/** The Post as answered, computed for one reader. */
interface PostFields {
  id: string;
  author: MentionView & { title: string };
  content: string;
  mentions: MentionView[];
  tags: string[];
  images: string[];
  videos: string[];
  documents: { url: string; name: string; mimeType: string; sizeBytes: number }[];
  poll: PollView | null;
  recognition: { recipient: MentionView; category: RecognitionCategory; message: string } | null;
  isAnnouncement: boolean;
  isHidden: boolean;
  reactions: { reaction: Reaction; count: number }[];
  upvoteCount: number;
  viewerReaction: Reaction | null;
  commentCount: number;
  shareCount: number;
  hasBookmarked: boolean;
  canManage: boolean;
  createdAt: string;
  updatedAt: string;
  editedAt: string | null;
  /** Must-read announcements only (docs/must-read.md). */
  acknowledgement?: AcknowledgementView;
  /** A targeted post's audience as given, shown to its author and super admins only (docs/audiences.md). */
  audience?: PostAudienceInput;
}

/** A shared post as embedded in a share: without a sharedPost of its own. */
export type SharedPostView = PostFields & { sharedPost: null };
export type PostView = PostFields & { sharedPost: SharedPostView | null };

export interface PollView {
  question: string;
  description: string;
  options: { id: string; text: string; votes: number | null }[];
  totalVotes: number;
  viewerOptionId: string | null;
  closesAt: string;
  isClosed: boolean;
}

export const emptyStats = (postId: string): PostStatsItem =>
  PostStats.item({
    postId,
    reactions: zeroReactions(),
    reactionTotal: 0,
    commentCount: 0,
    shareCount: 0,
    tallies: {},
    pollTotal: 0,
    actorId: '',
  });

export const isPollClosed = (poll: PollItem, now = Date.now()) => !!poll.closedAt || Date.parse(poll.closesAt) <= now;

/** Tallies are hidden (null) from a reader who holds no vote while the poll is open. */
export function pollView(poll: PollItem, stats: PostStatsItem, viewerOptionId: string | null): PollView {
  const isClosed = isPollClosed(poll);
  const show = isClosed || viewerOptionId !== null;
  return {
    question: poll.question,
    description: poll.description,
    options: poll.options.map((o) => ({
      id: o.id,
      text: o.text,
      votes: show ? Math.max(0, stats.tallies?.[o.id] ?? 0) : null,
    })),
    totalVotes: Math.max(0, stats.pollTotal ?? 0),
    viewerOptionId,
    closesAt: poll.closesAt,
    isClosed,
  };
}

/** Per-reaction counts, busiest first (ties in the canonical order), zero counts left out. */
export function reactionCounts(stats: PostStatsItem): { reaction: Reaction; count: number }[] {
  return REACTIONS.map((reaction) => ({ reaction, count: stats.reactions?.[reaction] ?? 0 }))
    .filter((r) => r.count > 0)
    .sort((a, b) => b.count - a.count);
}

/** What a page of posts needs besides the post items, read in batches whatever the page holds. */
interface Context {
  viewer: Viewer;
  originals: Map<string, PostItem>;
  stats: Map<string, PostStatsItem>;
  reactions: Map<string, PostReactionItem>;
  votes: Map<string, PollVoteItem>;
  bookmarks: Set<string>;
  users: Map<string, UserItem>;
  acknowledgements: AcknowledgementContext;
}

function peopleOf(p: PostItem): string[] {
  return [p.authorId, ...mentionIds(p.content), ...(p.recognition ? [p.recognition.recipientId] : [])];
}

/**
 * Builds the views of `posts` for `viewer` with a fixed number of batch reads: (1) counters and the
 * reader's reactions, votes and bookmarks for the posts and the posts they share, with those shared
 * posts; (2) every person named (authors, mentions, recipients). No request per post.
 */
export async function postViews(
  viewer: Viewer,
  posts: PostItem[],
  opts: { consistent?: boolean } = {},
): Promise<PostView[]> {
  if (posts.length === 0) return [];
  const originalIds = [...new Set(posts.map((p) => p.sharedPostId).filter((x): x is string => !!x))];
  const ids = [...new Set([...posts.map((p) => p.id), ...originalIds])];
  const userId = viewer.userId;
  const mustReadIds = [...new Set([...posts.filter((p) => p.acknowledgement).map((p) => p.id), ...originalIds])];
  // One batch read of the posts' partitions and the reader's bookmark list (several entities): each
  // item found is told by its declaration.
  const keys = [
    ...originalIds.map((id) => Post.key({ id })),
    ...ids.flatMap((postId) => [
      PostStats.key({ postId }),
      PostReaction.key({ postId, userId }),
      Bookmark.key({ userId, postId }),
    ]),
    // The reader's vote only where there is a poll (a share has none; a shared post may).
    ...[...new Set([...posts.filter((p) => p.poll).map((p) => p.id), ...originalIds])].map((postId) =>
      PollVote.key({ postId, userId }),
    ),
    // Must-reads: the reader's part, and the counts for super admins (docs/must-read.md).
    ...mustReadIds.flatMap((postId) => [
      MustReadAck.key({ postId, userId }),
      ...(viewer.role === 'super_admin' ? [MustRead.key({ postId })] : []),
    ]),
  ];
  const found = await getMany(keys, opts.consistent);
  const ctx: Context = {
    viewer,
    originals: new Map(),
    stats: new Map(),
    reactions: new Map(),
    votes: new Map(),
    bookmarks: new Set(),
    users: new Map(),
    acknowledgements: { parts: new Map(), states: new Map() },
  };
  for (const id of mustReadIds) {
    const part = found.get(keyString(MustReadAck.key({ postId: id, userId })));
    if (MustReadAck.is(part)) ctx.acknowledgements.parts.set(id, part);
    const state = found.get(keyString(MustRead.key({ postId: id })));
    if (MustRead.is(state)) ctx.acknowledgements.states.set(id, state);
  }
  for (const id of ids) {
    const original = found.get(keyString(Post.key({ id })));
    if (Post.is(original) && originalIds.includes(id)) ctx.originals.set(id, original);
    const stats = found.get(keyString(PostStats.key({ postId: id })));
    if (PostStats.is(stats)) ctx.stats.set(id, stats);
    const reaction = found.get(keyString(PostReaction.key({ postId: id, userId })));
    if (PostReaction.is(reaction)) ctx.reactions.set(id, reaction);
    const vote = found.get(keyString(PollVote.key({ postId: id, userId })));
    if (PollVote.is(vote)) ctx.votes.set(id, vote);
    if (Bookmark.is(found.get(keyString(Bookmark.key({ userId, postId: id }))))) ctx.bookmarks.add(id);
  }
  ctx.users = await getUsers([...posts, ...ctx.originals.values()].flatMap(peopleOf));
  return posts.map((p) => viewOf(p, ctx, true));
}

/** One post for one reader; `consistent` after a change, so the answer shows it (read-your-writes). */
export async function postView(viewer: Viewer, post: PostItem, opts: { consistent?: boolean } = {}): Promise<PostView> {
  return (await postViews(viewer, [post], opts))[0];
}

function viewOf(p: PostItem, ctx: Context, withShared: boolean): PostView {
  const stats = ctx.stats.get(p.id) ?? emptyStats(p.id);
  const author = ctx.users.get(p.authorId);
  const vote = ctx.votes.get(p.id);
  let sharedPost: SharedPostView | null = null;
  if (withShared && p.sharedPostId) {
    const original = ctx.originals.get(p.sharedPostId);
    // A shared post that was deleted, or hidden from this reader, is simply not shown.
    if (original && (!original.hidden || isPrivileged(ctx.viewer, original.authorId)))
      sharedPost = { ...viewOf(original, ctx, false), sharedPost: null };
  }
  return {
    id: p.id,
    author: { ...mentionIn(ctx.users, p.authorId), title: author?.title ?? '' },
    content: p.content,
    mentions: resolveMentions(mentionIds(p.content), ctx.users),
    tags: p.tags,
    images: p.images,
    videos: p.videos,
    documents: p.documents,
    poll: p.poll ? pollView(p.poll, stats, vote?.optionId ?? null) : null,
    recognition: p.recognition
      ? {
          recipient: mentionIn(ctx.users, p.recognition.recipientId),
          category: p.recognition.category,
          message: p.recognition.message,
        }
      : null,
    isAnnouncement: p.isAnnouncement,
    isHidden: p.hidden,
    sharedPost,
    reactions: reactionCounts(stats),
    upvoteCount: Math.max(0, stats.reactionTotal ?? 0),
    viewerReaction: ctx.reactions.get(p.id)?.reaction ?? null,
    commentCount: Math.max(0, stats.commentCount ?? 0),
    shareCount: Math.max(0, stats.shareCount ?? 0),
    hasBookmarked: ctx.bookmarks.has(p.id),
    canManage: isPrivileged(ctx.viewer, p.authorId),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    editedAt: p.editedAt,
    ...(p.acknowledgement ? { acknowledgement: acknowledgementView(p, ctx.viewer, ctx.acknowledgements) } : {}),
    ...(p.audience && isPrivileged(ctx.viewer, p.authorId) ? { audience: p.audience } : {}),
  };
}
