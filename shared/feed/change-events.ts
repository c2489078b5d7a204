import {
  actorOf,
  type ChangeEventDraft,
  type ChangeMapper,
  changed,
  everyone,
  onlyUser,
} from '../live/change-events.ts';

/**
 * The feed's live-update events, from item images alone. Events name what changed;
 * clients re-read it. Counter items tell which counter moved: reactions → post.reaction.updated,
 * shares → post.share.updated, poll tallies → post.poll.updated (comment counts are announced by
 * the comment items themselves).
 */
const draft = (
  type: string,
  actorId: string | null,
  payload: Record<string, unknown>,
  audience = everyone,
): ChangeEventDraft => ({ type, actorId, payload, audience });

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
  if (change.eventName === 'INSERT') {
    return [
      draft('post.created', actorOf(change), {
        postId,
        authorId: post.authorId,
        isAnnouncement: !!post.isAnnouncement,
        isRecognition: !!post.recognition,
        hasPoll: !!post.poll,
      }),
    ];
  }
  if (change.eventName === 'REMOVE')
    return [draft('post.deleted', actorOf(change), { postId, authorId: post.authorId })];
  const events: ChangeEventDraft[] = [];
  if (changed(change, ...POST_BODY) || (changed(change, 'poll') && !pollOnlyClosed(change))) {
    events.push(draft('post.updated', actorOf(change), { postId }));
  }
  if (pollOnlyClosed(change)) {
    // Closed by its author (their act) or found closed by the sweep at closesAt (nobody's act).
    const byAuthor = changed(change, 'poll');
    events.push(draft('post.poll.updated', byAuthor ? actorOf(change) : null, { postId }));
  }
  return events;
};

/** The poll's closing (by the author, or announced by the sweep) and nothing else of the poll changed. */
function pollOnlyClosed(change: Parameters<ChangeMapper>[0]): boolean {
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
  const events: ChangeEventDraft[] = [];
  if (changed(change, 'reactions', 'reactionTotal')) events.push(draft('post.reaction.updated', actor, { postId }));
  if (changed(change, 'shareCount')) events.push(draft('post.share.updated', actor, { postId }));
  if (changed(change, 'tallies', 'pollTotal')) events.push(draft('post.poll.updated', actor, { postId }));
  return events;
};

export const commentChanges: ChangeMapper = (change) => {
  const c = change.newImage ?? change.oldImage;
  if (!c) return [];
  const payload = { postId: c.postId, commentId: c.id, parentId: c.parentId ?? null };
  if (change.eventName === 'INSERT') return [draft('post.comment.created', actorOf(change), payload)];
  if (change.eventName === 'REMOVE') return [draft('post.comment.deleted', actorOf(change), payload)];
  // Hidden by moderation it is gone for readers, shown again it is back; nobody's act (docs/moderation.md).
  if (changed(change, 'hidden'))
    return [draft(c.hidden ? 'post.comment.deleted' : 'post.comment.created', null, payload)];
  if (changed(change, 'likeCount', 'dislikeCount'))
    return [draft('post.comment.vote.updated', actorOf(change), { postId: c.postId, commentId: c.id })];
  return [];
};

/** A website decision shows on the post ("website approval" → post.updated). */
export const websiteEntryChanges: ChangeMapper = (change) => {
  if (change.eventName !== 'MODIFY' || !changed(change, 'review')) return [];
  return [draft('post.updated', actorOf(change), { postId: change.newImage?.postId })];
};

/**
 * A person's own on/off record (a bookmark, a follow): created is on, deleted is off, and only its
 * owner is told.
 */
const ownToggle =
  (type: string, payload: (item: Record<string, any>, on: boolean) => Record<string, unknown>): ChangeMapper =>
  (change) => {
    const item = change.newImage ?? change.oldImage;
    if (!item || change.eventName === 'MODIFY') return [];
    return [draft(type, item.userId, payload(item, change.eventName === 'INSERT'), onlyUser(item.userId))];
  };

export const bookmarkChanges = ownToggle('bookmark.updated', (b, bookmarked) => ({ postId: b.postId, bookmarked }));

export const followChanges = ownToggle('follow.updated', (f, following) => ({ followingId: f.followingId, following }));

/** Registered in `shared/registry/change-mappers.ts`, by `entity`. */
export const feedChangeMappers: Record<string, ChangeMapper> = {
  Post: postChanges,
  PostStats: postStatsChanges,
  Comment: commentChanges,
  WebsiteEntry: websiteEntryChanges,
  Bookmark: bookmarkChanges,
  Follow: followChanges,
};
