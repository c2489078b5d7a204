import {
  type Audience,
  actorOf,
  type ChangeMapper,
  changed,
  changeType,
  type DeclaredChange,
  type ItemChange,
  onlyUser,
  postReaders,
} from '../live/change-events.ts';
import * as z from '../util/zod.ts';

/**
 * Who a post's event is for: everyone (undefined), or for a targeted post its readers (docs/audiences.md):
 * the stream asks whether each connection's person may read it.
 */
const readersOf = (item: Record<string, any> | undefined, postId: string): Audience | undefined =>
  item?.audience || item?.targeted ? postReaders(postId) : undefined;

/**
 * The feed's live-update events, from item images alone. Events name what changed;
 * clients re-read it. Counter items tell which counter moved: reactions → post.reaction.updated,
 * shares → post.share.updated, poll tallies → post.poll.updated (comment counts are announced by
 * the comment items themselves).
 */
const postRef = z.object({ postId: z.string() });
const commentRef = z.object({
  postId: z.string(),
  commentId: z.string(),
  parentId: z.described(z.nullable(z.string()), 'The comment replied to; null for a top-level comment.'),
});

export const postCreated = changeType(
  'post.created',
  'readers',
  'A post was published (a share included).',
  z.object({
    postId: z.string(),
    authorId: z.string(),
    isAnnouncement: z.boolean(),
    isRecognition: z.boolean(),
    hasPoll: z.boolean(),
  }),
);
export const postUpdated = changeType(
  'post.updated',
  'readers',
  'A post was edited, hidden or unhidden, or its website approval changed.',
  postRef,
);
export const postDeleted = changeType(
  'post.deleted',
  'readers',
  'A post was deleted.',
  z.object({ postId: z.string(), authorId: z.string() }),
);
export const postReactionUpdated = changeType(
  'post.reaction.updated',
  'readers',
  "A post's reactions changed.",
  postRef,
);
export const postShareUpdated = changeType('post.share.updated', 'readers', "A post's share count changed.", postRef);
export const postPollUpdated = changeType(
  'post.poll.updated',
  'readers',
  "A post's poll was voted on or closed.",
  postRef,
);
export const commentCreated = changeType(
  'post.comment.created',
  'readers',
  'A comment or reply was added to a post.',
  commentRef,
);
export const commentDeleted = changeType(
  'post.comment.deleted',
  'readers',
  'A comment or reply was deleted.',
  commentRef,
);
export const commentVoteUpdated = changeType(
  'post.comment.vote.updated',
  'readers',
  "A comment's likes or dislikes changed.",
  z.object({ postId: z.string(), commentId: z.string() }),
);
export const bookmarkUpdated = changeType(
  'bookmark.updated',
  'user',
  'You bookmarked a post or removed its bookmark.',
  z.object({ postId: z.string(), bookmarked: z.boolean() }),
);
export const followUpdated = changeType(
  'follow.updated',
  'user',
  'You followed or unfollowed a person.',
  z.object({ followingId: z.string(), following: z.boolean() }),
);

/** The feed's change types (collected by `shared/registry/change-types.ts`). */
export const feedChangeTypes = [
  postCreated,
  postUpdated,
  postDeleted,
  postReactionUpdated,
  postShareUpdated,
  postPollUpdated,
  commentCreated,
  commentDeleted,
  commentVoteUpdated,
  bookmarkUpdated,
  followUpdated,
];

/** What a post edit, hide or unhide changes (counters live elsewhere; index attributes are not news). */
const POST_BODY = [
  'content',
  'images',
  'videos',
  'documents',
  'recognition',
  'isAnnouncement',
  'hidden',
  'tags',
  'editedAt',
];

export const postChanges: ChangeMapper = (change) => {
  const post = change.newImage ?? change.oldImage;
  if (!post) return [];
  const postId = post.id as string;
  const to = readersOf(post, postId);
  if (change.eventName === 'INSERT') {
    // A targeted post is announced once its readers are recorded (postAudienceChanges).
    if (to) return [];
    return [postCreated.event(actorOf(change), createdPayload(post))];
  }
  if (change.eventName === 'REMOVE')
    return [postDeleted.event(actorOf(change), { postId, authorId: post.authorId }, to)];
  const events: DeclaredChange[] = [];
  if (changed(change, ...POST_BODY) || (changed(change, 'poll') && !pollOnlyClosed(change))) {
    events.push(postUpdated.event(actorOf(change), { postId }, to));
  }
  if (pollOnlyClosed(change)) {
    // Closed by its author (their act) or found closed by the sweep at closesAt (nobody's act).
    const byAuthor = changed(change, 'poll');
    events.push(postPollUpdated.event(byAuthor ? actorOf(change) : null, { postId }, to));
  }
  return events;
};

const createdPayload = (post: Record<string, any>) => ({
  postId: post.id as string,
  authorId: post.authorId as string,
  isAnnouncement: !!post.isAnnouncement,
  isRecognition: !!post.recognition,
  hasPoll: !!post.poll,
});

/**
 * A targeted post (docs/audiences.md): `post.created` goes to its readers once the background pass has
 * recorded them all (its audience's `doneAt`), and to a later joiner of a dynamic audience alone.
 */
export const postAudienceChanges: ChangeMapper = (change) => {
  const a = change.newImage;
  if (change.eventName !== 'MODIFY' || !a?.doneAt || change.oldImage?.doneAt || !a.created) return [];
  return [postCreated.event(a.authorId, { postId: a.postId, ...a.created }, postReaders(a.postId))];
};

export const postReaderChanges: ChangeMapper = (change) => {
  const r = change.newImage;
  if (change.eventName !== 'INSERT' || r?.how !== 'joined' || !r.created) return [];
  return [postCreated.event(null, { postId: r.postId, ...r.created }, onlyUser(r.userId))];
};

/** The poll's closing (by the author, or announced by the sweep) and nothing else of the poll changed. */
function pollOnlyClosed(change: ItemChange): boolean {
  if (!changed(change, 'pollClosedNotifiedAt', 'poll')) return false;
  const before = change.oldImage?.poll;
  const after = change.newImage?.poll;
  if (!before || !after) return false;
  return JSON.stringify({ ...before, closedAt: null }) === JSON.stringify({ ...after, closedAt: null });
}

export const postStatsChanges: ChangeMapper = (change) => {
  if (change.eventName !== 'MODIFY') return [];
  const postId = (change.newImage?.postId ?? change.oldImage?.postId) as string;
  const actor = actorOf(change);
  const to = readersOf(change.newImage, postId);
  const events: DeclaredChange[] = [];
  if (changed(change, 'reactions', 'reactionTotal')) events.push(postReactionUpdated.event(actor, { postId }, to));
  if (changed(change, 'shareCount')) events.push(postShareUpdated.event(actor, { postId }, to));
  if (changed(change, 'tallies', 'pollTotal')) events.push(postPollUpdated.event(actor, { postId }, to));
  return events;
};

export const commentChanges: ChangeMapper = (change) => {
  const c = change.newImage ?? change.oldImage;
  if (!c) return [];
  const payload = { postId: c.postId, commentId: c.id, parentId: c.parentId ?? null };
  const to = readersOf(c, c.postId);
  if (change.eventName === 'INSERT') return [commentCreated.event(actorOf(change), payload, to)];
  if (change.eventName === 'REMOVE') return [commentDeleted.event(actorOf(change), payload, to)];
  // Hidden by moderation it is gone for readers, shown again it is back; nobody's act (docs/moderation.md).
  if (changed(change, 'hidden')) return [(c.hidden ? commentDeleted : commentCreated).event(null, payload, to)];
  if (changed(change, 'likeCount', 'dislikeCount'))
    return [commentVoteUpdated.event(actorOf(change), { postId: c.postId, commentId: c.id }, to)];
  return [];
};

/** A website decision shows on the post ("website approval" → post.updated). */
export const websiteEntryChanges: ChangeMapper = (change) => {
  if (change.eventName !== 'MODIFY' || !changed(change, 'review')) return [];
  return [postUpdated.event(actorOf(change), { postId: change.newImage?.postId })];
};

/**
 * A person's own on/off record (a bookmark, a follow): created is on, deleted is off, and only its
 * owner is told.
 */
export const bookmarkChanges: ChangeMapper = (change) => {
  const b = change.newImage ?? change.oldImage;
  if (!b || change.eventName === 'MODIFY') return [];
  return [bookmarkUpdated.event(b.userId, { postId: b.postId, bookmarked: change.eventName === 'INSERT' }, b.userId)];
};

export const followChanges: ChangeMapper = (change) => {
  const f = change.newImage ?? change.oldImage;
  if (!f || change.eventName === 'MODIFY') return [];
  return [
    followUpdated.event(f.userId, { followingId: f.followingId, following: change.eventName === 'INSERT' }, f.userId),
  ];
};

/** Registered in `shared/registry/change-mappers.ts`, by `entity`. */
export const feedChangeMappers: Record<string, ChangeMapper> = {
  Post: postChanges,
  PostStats: postStatsChanges,
  Comment: commentChanges,
  WebsiteEntry: websiteEntryChanges,
  Bookmark: bookmarkChanges,
  Follow: followChanges,
  PostAudience: postAudienceChanges,
  PostReader: postReaderChanges,
};
