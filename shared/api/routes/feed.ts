import { ScheduledPost } from '../../feed/entities.ts';
import { PENDING_UPLOADS_PREFIX } from '../../storage/pending-uploads.ts';
import * as z from '../../util/zod.ts';
import { boolParam, limitParam, pageQuery } from '../query.ts';
import { API_PREFIX, declared, defineRoute, type RouteAccess } from '../route-def.ts';
import { Mention, nonBlank, page } from '../schemas/common.ts';
import {
  AcknowledgementsPage,
  Comment,
  Contributor,
  CreatePostBody,
  LeaderboardEntry,
  Poll,
  Post,
  PostBody,
  Reaction,
} from '../schemas/feed.ts';
import { FEED_WRITES } from '../writes.ts';

/*
 * The feed: posts, reactions, polls, comments, recognitions,
 * bookmarks, follows, shares, hiding, post media, and the contributors and leaderboard.
 */
const P = `${API_PREFIX}/posts`;
const writes: RouteAccess = { table: 'write', writes: FEED_WRITES };
const reads: RouteAccess = { table: 'read' };
/** Changes that notify people (notify() also delivers push). */
const notifying: RouteAccess = { table: 'write', writes: FEED_WRITES, sns: true };
/**
 * Writing a post also verifies the presigned uploads it uses (shared/feed/uploads.ts): it reads their
 * heads under the pending prefix, copies verified ones to their keys under `posts/` and deletes the
 * pending objects (and refused ones).
 */
const postWrites: RouteAccess = {
  ...notifying,
  // A post may be scheduled instead (shared/feed/scheduled-posts.ts), or a scheduled one edited.
  writes: [...FEED_WRITES, ScheduledPost],
  bucket: [
    { prefix: 'posts/', actions: ['write'] },
    { prefix: PENDING_UPLOADS_PREFIX, actions: ['read', 'delete'] },
    // A targeted post's audience is checked over the roster document (docs/audiences.md).
    { prefix: 'documents/', actions: ['read'] },
  ],
};

const postIdPath = `${P}/{postId}`;

// ---------------------------------------------------------------- posts

export const createPostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'create-post',
    area: 'feed',
    method: 'POST',
    path: P,
    auth: 'session',
    audit: {
      action: 'post.announcement.create',
      // A post, or a scheduled one (recorded when scheduled, with its id): only what was stored as an
      // announcement, never what was asked (a member's `isAnnouncement` makes a plain post).
      target: { created: ['Post', 'ScheduledPost'] },
      when: (body: { isAnnouncement?: boolean }) => body?.isAnnouncement === true,
      createdWhen: (item: { isAnnouncement?: unknown; input?: { isAnnouncement?: unknown } }) =>
        item.isAnnouncement === true || item.input?.isAnnouncement === true,
    },
    summary:
      'Creates a post (text, media, documents, a poll or a recognition; announcements by super admins, which may require acknowledgement: docs/must-read.md).',
    body: CreatePostBody,
    idempotent: true,
    status: 201,
    response: Post,
    // 403: acknowledgement asked for by anybody but a super admin.
    // 409: an attached presigned upload was PUT again while it was being checked (shared/feed/uploads.ts).
    errors: [400, 403, 409],
    access: postWrites,
  }),
);

export const listPostsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-posts',
    area: 'feed',
    method: 'GET',
    path: P,
    auth: 'session',
    summary: 'Posts, newest first; filters combine with AND. Hidden posts are left out.',
    query: z.strictObject({
      ...pageQuery(),
      tag: z.described(z.optional(z.string().check(z.minLength(1)).check(z.maxLength(100))), 'A hashtag, without #'),
      authorId: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
      type: z.optional(z.enum(['announcement', 'recognition', 'poll'])),
      bookmarked: boolParam(),
      following: boolParam(),
    }),
    status: 200,
    response: page(Post),
    access: reads,
  }),
);

export const getPostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-post',
    area: 'feed',
    method: 'GET',
    path: postIdPath,
    auth: 'session',
    summary: 'One post, computed for the reader.',
    status: 200,
    response: Post,
    errors: [404],
    access: reads,
  }),
);

export const updatePostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'update-post',
    area: 'feed',
    method: 'PATCH',
    path: postIdPath,
    auth: 'session',
    summary: 'Replaces the whole post (author only). A changed poll or recognition is a 409.',
    body: PostBody,
    status: 200,
    response: Post,
    errors: [400, 403, 404, 409],
    access: postWrites,
  }),
);

export const deletePostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'delete-post',
    area: 'feed',
    method: 'DELETE',
    path: postIdPath,
    auth: 'session',
    summary:
      "Deletes a post (author or super admin), or the caller's scheduled post before its moment; it answers 404 everywhere afterwards.",
    status: 204,
    errors: [403, 404],
    access: { table: 'write', writes: [...FEED_WRITES, ScheduledPost] },
  }),
);

export const sharePostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'share-post',
    area: 'feed',
    method: 'POST',
    path: `${postIdPath}/share`,
    auth: 'session',
    summary: 'Shares a post as a new post of the caller (a share of a share shares the original).',
    body: z.strictObject({
      content: z.nullish(z.string().check(z.maxLength(10000, 'must be at most 10000 characters'))),
    }),
    bodyOptional: true,
    idempotent: true,
    status: 201,
    response: Post,
    // 403: a post for an audience is not shared (docs/audiences.md).
    errors: [400, 403, 404],
    access: notifying,
  }),
);

export const reactToPostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'react-to-post',
    area: 'feed',
    method: 'POST',
    path: `${postIdPath}/upvote`,
    auth: 'session',
    summary: "Sets the caller's reaction (missing reads as like); answers the post with recomputed tallies.",
    body: z.strictObject({ reaction: z.optional(Reaction) }),
    bodyOptional: true,
    status: 200,
    response: Post,
    errors: [400, 404],
    access: notifying,
  }),
);

export const removePostReactionRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'remove-post-reaction',
    area: 'feed',
    method: 'DELETE',
    path: `${postIdPath}/upvote`,
    auth: 'session',
    summary: "Takes the caller's reaction back; answers the post.",
    status: 200,
    response: Post,
    errors: [404],
    access: writes,
  }),
);

export const bookmarkPostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'bookmark-post',
    area: 'feed',
    method: 'PUT',
    path: `${postIdPath}/bookmark`,
    auth: 'session',
    summary: 'Bookmarks a post for the caller.',
    status: 204,
    errors: [404],
    access: writes,
  }),
);

export const unbookmarkPostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'unbookmark-post',
    area: 'feed',
    method: 'DELETE',
    path: `${postIdPath}/bookmark`,
    auth: 'session',
    summary: "Removes the caller's bookmark.",
    status: 204,
    errors: [404],
    access: writes,
  }),
);

export const hidePostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'hide-post',
    area: 'feed',
    method: 'POST',
    path: `${API_PREFIX}/admin/posts/{postId}/hide`,
    auth: 'super_admin',
    audit: { action: 'post.hide', target: { params: ['postId'] } },
    summary: 'Hides a post: out of every list and off the website; 404 to everybody but its author and super admins.',
    status: 200,
    response: Post,
    errors: [404],
    access: writes,
  }),
);

export const unhidePostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'unhide-post',
    area: 'feed',
    method: 'POST',
    path: `${API_PREFIX}/admin/posts/{postId}/unhide`,
    auth: 'super_admin',
    audit: { action: 'post.unhide', target: { params: ['postId'] } },
    summary: 'Shows a hidden post again (an approved one returns to the website).',
    status: 200,
    response: Post,
    errors: [404],
    access: writes,
  }),
);

// ---------------------------------------------------------------- must-read announcements (docs/must-read.md)

export const acknowledgePostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'acknowledge-post',
    area: 'feed',
    method: 'POST',
    path: `${postIdPath}/acknowledge`,
    auth: 'session',
    summary: 'Acknowledges a must-read announcement (idempotent); answers the post. 409 for a post that asks for none.',
    status: 200,
    response: Post,
    errors: [404, 409],
    access: writes,
  }),
);

export const listMustReadRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-must-read',
    area: 'feed',
    method: 'GET',
    path: `${API_PREFIX}/users/me/must-read`,
    auth: 'session',
    summary: 'The must-read announcements the caller still has to acknowledge, newest first.',
    query: z.strictObject(pageQuery()),
    status: 200,
    response: page(Post),
    errors: [400],
    access: reads,
  }),
);

export const listAcknowledgementsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-acknowledgements',
    area: 'feed',
    method: 'GET',
    path: `${postIdPath}/acknowledgements`,
    auth: 'super_admin',
    summary: "A must-read's people with one status (pending by default), by id, paged, with the exact totals.",
    query: z.strictObject({ ...pageQuery(), status: z.optional(z.enum(['pending', 'acknowledged'])) }),
    status: 200,
    response: AcknowledgementsPage,
    errors: [400, 404, 409],
    access: reads,
  }),
);

// ---------------------------------------------------------------- polls

export const votePollRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'vote-poll',
    area: 'feed',
    method: 'POST',
    path: `${postIdPath}/poll/vote`,
    auth: 'session',
    summary: 'Votes; voting for the option already held takes the vote back. A closed poll is a 409.',
    body: z.strictObject({ optionId: z.string().check(z.minLength(1)).check(z.maxLength(100)) }),
    status: 200,
    response: Poll,
    errors: [400, 404, 409],
    access: writes,
  }),
);

export const closePollRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'close-poll',
    area: 'feed',
    method: 'POST',
    path: `${postIdPath}/poll/close`,
    auth: 'session',
    summary: 'Ends voting early (author only; one-way).',
    status: 200,
    response: Poll,
    errors: [403, 404, 409],
    access: notifying,
  }),
);

export const listPollVotersRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-poll-voters',
    area: 'feed',
    method: 'GET',
    path: `${postIdPath}/poll/voters`,
    auth: 'session',
    summary:
      'Who voted for what, every option listed, each voter with the name and picture they had when voting; 403 until the poll closes.',
    status: 200,
    response: z.array(z.object({ optionId: z.string(), voters: z.array(Mention) })),
    errors: [403, 404],
    access: reads,
  }),
);

// ---------------------------------------------------------------- comments

export const listCommentsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-comments',
    area: 'feed',
    method: 'GET',
    path: `${postIdPath}/comments`,
    auth: 'session',
    summary: 'Top-level comments, oldest first, each with replyCount.',
    query: z.strictObject(pageQuery()),
    status: 200,
    response: page(Comment),
    errors: [404],
    access: reads,
  }),
);

export const createCommentRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'create-comment',
    area: 'feed',
    method: 'POST',
    path: `${postIdPath}/comments`,
    auth: 'session',
    summary: 'Comments on a post, or replies in a thread (a parentId that is a reply folds into its thread).',
    body: z.strictObject({
      content: nonBlank(1, 5000),
      parentId: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(100))),
    }),
    idempotent: true,
    status: 201,
    response: Comment,
    errors: [400, 404],
    access: notifying,
  }),
);

export const listCommentRepliesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-comment-replies',
    area: 'feed',
    method: 'GET',
    path: `${API_PREFIX}/comments/{commentId}/replies`,
    auth: 'session',
    summary: 'The replies of one thread, oldest first.',
    query: z.strictObject(pageQuery()),
    status: 200,
    response: page(Comment),
    errors: [404],
    access: reads,
  }),
);

export const updateCommentRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'update-comment',
    area: 'feed',
    method: 'PATCH',
    path: `${API_PREFIX}/comments/{commentId}`,
    auth: 'session',
    summary: 'Edits a comment (its author only).',
    body: z.strictObject({ content: nonBlank(1, 5000) }),
    status: 200,
    response: Comment,
    errors: [400, 403, 404],
    access: notifying,
  }),
);

export const deleteCommentRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'delete-comment',
    area: 'feed',
    method: 'DELETE',
    path: `${API_PREFIX}/comments/{commentId}`,
    auth: 'session',
    summary: "Deletes a comment (its author, the post's author or a super admin).",
    status: 204,
    errors: [403, 404],
    access: writes,
  }),
);

export const voteCommentRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'vote-comment',
    area: 'feed',
    method: 'POST',
    path: `${API_PREFIX}/comments/{commentId}/vote`,
    auth: 'session',
    summary: 'Likes or dislikes a comment; the vote already held is taken back.',
    body: z.strictObject({ vote: z.enum(['like', 'dislike']) }),
    status: 200,
    response: z.object({
      commentId: z.string(),
      likeCount: z.number().check(z.int()),
      dislikeCount: z.number().check(z.int()),
      viewerVote: z.nullable(z.enum(['like', 'dislike'])),
    }),
    errors: [400, 404],
    access: writes,
  }),
);

// ---------------------------------------------------------------- recognitions, follows

export const listRecognitionsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-recognitions',
    area: 'feed',
    method: 'GET',
    path: `${API_PREFIX}/recognitions`,
    auth: 'session',
    summary: 'Posts that carry a recognition, newest first.',
    query: z.strictObject(pageQuery()),
    status: 200,
    response: page(Post),
    access: reads,
  }),
);

export const listPersonRecognitionsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-person-recognitions',
    area: 'feed',
    method: 'GET',
    path: `${API_PREFIX}/people/{userId}/recognitions`,
    auth: 'session',
    summary: 'Posts that carry a recognition for that person, newest first.',
    query: z.strictObject(pageQuery()),
    status: 200,
    response: page(Post),
    errors: [404],
    access: reads,
  }),
);

export const followPersonRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'follow-person',
    area: 'feed',
    method: 'PUT',
    path: `${API_PREFIX}/people/{userId}/follow`,
    auth: 'session',
    summary: 'Follows a person (yourself: 400).',
    status: 204,
    errors: [400, 404],
    access: writes,
  }),
);

export const unfollowPersonRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'unfollow-person',
    area: 'feed',
    method: 'DELETE',
    path: `${API_PREFIX}/people/{userId}/follow`,
    auth: 'session',
    summary: 'Stops following a person.',
    status: 204,
    errors: [400, 404],
    access: writes,
  }),
);

// ---------------------------------------------------------------- contributors, leaderboard
export const listContributorsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-contributors',
    area: 'feed',
    method: 'GET',
    path: `${API_PREFIX}/people/contributors`,
    auth: 'session',
    summary: 'Featured people first (in the order they were featured), then the most posts.',
    query: z.strictObject({ limit: limitParam() }),
    status: 200,
    response: z.array(Contributor),
    access: reads,
  }),
);

export const getLeaderboardRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-leaderboard',
    area: 'feed',
    method: 'GET',
    path: `${API_PREFIX}/people/leaderboard`,
    auth: 'session',
    summary: 'People by score received (reactions ×1, comments ×2, shares ×3) in the period; scores above zero only.',
    query: z.strictObject({
      period: z._default(z.optional(z.enum(['week', 'month', 'all'])), 'all'),
      limit: limitParam(),
    }),
    status: 200,
    response: z.array(LeaderboardEntry),
    access: reads,
  }),
);

export const listScheduledPostsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-scheduled-posts',
    area: 'feed',
    method: 'GET',
    path: `${API_PREFIX}/users/me/scheduled-posts`,
    auth: 'session',
    summary:
      "The caller's posts scheduled for later, soonest first, each with publishAt (and scheduleFailure when one could not be published).",
    query: z.strictObject(pageQuery()),
    status: 200,
    response: page(Post),
    errors: [400],
    access: reads,
  }),
);

export const feedRoutes = [
  listScheduledPostsRoute,
  createPostRoute,
  listPostsRoute,
  getPostRoute,
  updatePostRoute,
  deletePostRoute,
  sharePostRoute,
  reactToPostRoute,
  removePostReactionRoute,
  bookmarkPostRoute,
  unbookmarkPostRoute,
  hidePostRoute,
  unhidePostRoute,
  acknowledgePostRoute,
  listMustReadRoute,
  listAcknowledgementsRoute,
  votePollRoute,
  closePollRoute,
  listPollVotersRoute,
  listCommentsRoute,
  createCommentRoute,
  listCommentRepliesRoute,
  updateCommentRoute,
  deleteCommentRoute,
  voteCommentRoute,
  listRecognitionsRoute,
  listPersonRecognitionsRoute,
  followPersonRoute,
  unfollowPersonRoute,
  listContributorsRoute,
  getLeaderboardRoute,
];
