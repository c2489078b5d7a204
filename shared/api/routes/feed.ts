import * as z from 'zod';
import { REACTIONS, RECOGNITION_CATEGORIES } from '../../feed/model.ts';
import { boolParam, limitParam, pageQuery } from '../query.ts';
import { API_PREFIX, defineRoute, type RouteAccess } from '../route-def.ts';
import { isoDateTime, Mention, nonBlank, nullableIso, page } from '../schemas/common.ts';

/*
 * The feed (spec 2.6, 4.15; decisions 6 and 8): posts, reactions, polls, comments, recognitions,
 * bookmarks, follows, shares, hiding, post media, and the contributors and leaderboard of spec 4.5.
 */
const P = `${API_PREFIX}/posts`;
const writes: RouteAccess = { table: 'write' };
const reads: RouteAccess = { table: 'read' };
/** Changes that notify people (notify() also delivers push). */
const notifying: RouteAccess = { table: 'write', sns: true };
/** Writing a post also checks that presigned uploads it uses have arrived in the bucket. */
const postWrites: RouteAccess = { ...notifying, bucket: [{ prefix: 'posts/', actions: ['read'] }] };

export const Reaction = z.enum(REACTIONS);
export const RecognitionCategory = z.enum(RECOGNITION_CATEGORIES);

// ---------------------------------------------------------------- shapes

export const Poll = z
  .object({
    question: z.string(),
    description: z.string(),
    options: z.array(z.object({ id: z.string(), text: z.string(), votes: z.number().int().nullable() })),
    totalVotes: z.number().int(),
    viewerOptionId: z.string().nullable(),
    closesAt: isoDateTime(),
    isClosed: z.boolean(),
  })
  .meta({ id: 'Poll' });

const DocumentRef = z.object({ url: z.string(), name: z.string(), mimeType: z.string(), sizeBytes: z.number().int() });

const postFields = {
  id: z.string(),
  author: Mention.extend({ title: z.string() }),
  content: z.string(),
  mentions: z.array(Mention),
  tags: z.array(z.string()),
  images: z.array(z.string()).describe('File paths under /api/v1/files/posts/'),
  videos: z.array(z.string()),
  documents: z.array(DocumentRef),
  poll: Poll.nullable(),
  recognition: z.object({ recipient: Mention, category: RecognitionCategory, message: z.string() }).nullable(),
  isAnnouncement: z.boolean(),
  isHidden: z.boolean(),
  reactions: z
    .array(z.object({ reaction: Reaction, count: z.number().int() }))
    .describe('Busiest first; zero counts left out'),
  upvoteCount: z.number().int().describe('Every reaction, dislikes included'),
  viewerReaction: Reaction.nullable(),
  commentCount: z.number().int(),
  shareCount: z.number().int().describe('Shares by people other than the author'),
  hasBookmarked: z.boolean(),
  canManage: z.boolean(),
  createdAt: isoDateTime(),
  updatedAt: isoDateTime(),
  editedAt: nullableIso(),
};

export const SharedPost = z.object({ ...postFields, sharedPost: z.null() }).meta({ id: 'SharedPost' });
export const Post = z.object({ ...postFields, sharedPost: SharedPost.nullable() }).meta({ id: 'Post' });

export const Comment = z
  .object({
    id: z.string(),
    postId: z.string(),
    parentId: z.string().nullable(),
    content: z.string(),
    mentions: z.array(Mention),
    author: Mention,
    likeCount: z.number().int(),
    dislikeCount: z.number().int(),
    viewerVote: z.enum(['like', 'dislike']).nullable(),
    replyCount: z.number().int(),
    createdAt: isoDateTime(),
    editedAt: nullableIso(),
  })
  .meta({ id: 'Comment' });

// ---------------------------------------------------------------- inputs

const filePath = z.string().min(1).max(300);
const PostBody = z.strictObject({
  content: z.string().max(10000, 'must be at most 10000 characters').nullish(),
  images: z.array(filePath).max(10, 'at most 10 images').optional(),
  videos: z.array(filePath).max(4, 'at most 4 videos').optional(),
  documents: z
    .array(
      z.strictObject({
        url: filePath,
        name: z.string().max(200, 'must be at most 200 characters'),
        mimeType: z.string().max(100),
        sizeBytes: z.number().int().min(0),
      }),
    )
    .max(10, 'at most 10 documents')
    .optional(),
  poll: z
    .strictObject({
      question: nonBlank(1, 300),
      description: z.string().max(1000, 'must be at most 1000 characters').optional(),
      options: z.array(nonBlank(1, 200)).min(2, 'a poll needs 2 to 10 options').max(10, 'a poll needs 2 to 10 options'),
      closesAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time' }),
    })
    .nullish(),
  recognition: z
    .strictObject({
      recipientId: z.string().min(1).max(200),
      category: RecognitionCategory,
      message: z.string().max(1000, 'must be at most 1000 characters').optional(),
    })
    .nullish(),
  isAnnouncement: z.boolean().optional(),
});

const postIdPath = `${P}/{postId}`;

// ---------------------------------------------------------------- posts

export const createPost = defineRoute({
  name: 'create-post',
  area: 'feed',
  method: 'POST',
  path: P,
  auth: 'session',
  summary: 'Creates a post (text, media, documents, a poll or a recognition; announcements by super admins).',
  body: PostBody,
  idempotent: true,
  status: 201,
  response: Post,
  errors: [400],
  access: postWrites,
});

export const listPosts = defineRoute({
  name: 'list-posts',
  area: 'feed',
  method: 'GET',
  path: P,
  auth: 'session',
  summary: 'Posts, newest first; filters combine with AND. Hidden posts are left out.',
  query: z.strictObject({
    ...pageQuery(),
    tag: z.string().min(1).max(100).optional().describe('A hashtag, without #'),
    authorId: z.string().min(1).max(200).optional(),
    type: z.enum(['announcement', 'recognition', 'poll']).optional(),
    bookmarked: boolParam(),
    following: boolParam(),
  }),
  status: 200,
  response: page(Post),
  access: reads,
});

export const getPost = defineRoute({
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
});

export const updatePost = defineRoute({
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
});

export const deletePost = defineRoute({
  name: 'delete-post',
  area: 'feed',
  method: 'DELETE',
  path: postIdPath,
  auth: 'session',
  summary: 'Deletes a post (author or super admin); it answers 404 everywhere afterwards.',
  status: 204,
  errors: [403, 404],
  access: writes,
});

export const sharePost = defineRoute({
  name: 'share-post',
  area: 'feed',
  method: 'POST',
  path: `${postIdPath}/share`,
  auth: 'session',
  summary: 'Shares a post as a new post of the caller (a share of a share shares the original).',
  body: z.strictObject({ content: z.string().max(10000, 'must be at most 10000 characters').nullish() }),
  bodyOptional: true,
  idempotent: true,
  status: 201,
  response: Post,
  errors: [400, 404],
  access: notifying,
});

export const reactToPost = defineRoute({
  name: 'react-to-post',
  area: 'feed',
  method: 'POST',
  path: `${postIdPath}/upvote`,
  auth: 'session',
  summary: "Sets the caller's reaction (missing reads as like); answers the post with recomputed tallies.",
  body: z.strictObject({ reaction: Reaction.optional() }),
  bodyOptional: true,
  status: 200,
  response: Post,
  errors: [400, 404],
  access: notifying,
});

export const removePostReaction = defineRoute({
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
});

export const bookmarkPost = defineRoute({
  name: 'bookmark-post',
  area: 'feed',
  method: 'PUT',
  path: `${postIdPath}/bookmark`,
  auth: 'session',
  summary: 'Bookmarks a post for the caller.',
  status: 204,
  errors: [404],
  access: writes,
});

export const unbookmarkPost = defineRoute({
  name: 'unbookmark-post',
  area: 'feed',
  method: 'DELETE',
  path: `${postIdPath}/bookmark`,
  auth: 'session',
  summary: "Removes the caller's bookmark.",
  status: 204,
  errors: [404],
  access: writes,
});

export const hidePost = defineRoute({
  name: 'hide-post',
  area: 'feed',
  method: 'POST',
  path: `${API_PREFIX}/admin/posts/{postId}/hide`,
  auth: 'super_admin',
  summary: 'Hides a post: out of every list and off the website; 404 to everybody but its author and super admins.',
  status: 200,
  response: Post,
  errors: [404],
  access: writes,
});

export const unhidePost = defineRoute({
  name: 'unhide-post',
  area: 'feed',
  method: 'POST',
  path: `${API_PREFIX}/admin/posts/{postId}/unhide`,
  auth: 'super_admin',
  summary: 'Shows a hidden post again (an approved one returns to the website).',
  status: 200,
  response: Post,
  errors: [404],
  access: writes,
});

// ---------------------------------------------------------------- polls

export const votePoll = defineRoute({
  name: 'vote-poll',
  area: 'feed',
  method: 'POST',
  path: `${postIdPath}/poll/vote`,
  auth: 'session',
  summary: 'Votes; voting for the option already held takes the vote back. A closed poll is a 409.',
  body: z.strictObject({ optionId: z.string().min(1).max(100) }),
  status: 200,
  response: Poll,
  errors: [400, 404, 409],
  access: writes,
});

export const closePoll = defineRoute({
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
});

export const listPollVoters = defineRoute({
  name: 'list-poll-voters',
  area: 'feed',
  method: 'GET',
  path: `${postIdPath}/poll/voters`,
  auth: 'session',
  summary: 'Who voted for what, every option listed; 403 until the poll closes.',
  status: 200,
  response: z.array(z.object({ optionId: z.string(), voters: z.array(Mention) })),
  errors: [403, 404],
  access: reads,
});

// ---------------------------------------------------------------- comments

export const listComments = defineRoute({
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
});

export const createComment = defineRoute({
  name: 'create-comment',
  area: 'feed',
  method: 'POST',
  path: `${postIdPath}/comments`,
  auth: 'session',
  summary: 'Comments on a post, or replies in a thread (a parentId that is a reply folds into its thread).',
  body: z.strictObject({ content: nonBlank(1, 5000), parentId: z.string().min(1).max(100).optional() }),
  idempotent: true,
  status: 201,
  response: Comment,
  errors: [400, 404],
  access: notifying,
});

export const listCommentReplies = defineRoute({
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
});

export const updateComment = defineRoute({
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
});

export const deleteComment = defineRoute({
  name: 'delete-comment',
  area: 'feed',
  method: 'DELETE',
  path: `${API_PREFIX}/comments/{commentId}`,
  auth: 'session',
  summary: "Deletes a comment (its author, the post's author or a super admin).",
  status: 204,
  errors: [403, 404],
  access: writes,
});

export const voteComment = defineRoute({
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
    likeCount: z.number().int(),
    dislikeCount: z.number().int(),
    viewerVote: z.enum(['like', 'dislike']).nullable(),
  }),
  errors: [400, 404],
  access: writes,
});

// ---------------------------------------------------------------- recognitions, follows

export const listRecognitions = defineRoute({
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
});

export const listPersonRecognitions = defineRoute({
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
});

export const followPerson = defineRoute({
  name: 'follow-person',
  area: 'feed',
  method: 'PUT',
  path: `${API_PREFIX}/people/{userId}/follow`,
  auth: 'session',
  summary: 'Follows a person (yourself: 400).',
  status: 204,
  errors: [400, 404],
  access: writes,
});

export const unfollowPerson = defineRoute({
  name: 'unfollow-person',
  area: 'feed',
  method: 'DELETE',
  path: `${API_PREFIX}/people/{userId}/follow`,
  auth: 'session',
  summary: 'Stops following a person.',
  status: 204,
  errors: [400, 404],
  access: writes,
});

// ---------------------------------------------------------------- contributors, leaderboard (spec 4.5)

export const Contributor = z
  .object({
    id: z.string(),
    name: z.string(),
    image: z.string().nullable(),
    title: z.string(),
    note: z.string(),
    isFeatured: z.boolean(),
    postCount: z.number().int(),
  })
  .meta({ id: 'Contributor' });

export const LeaderboardEntry = z
  .object({
    rank: z.number().int(),
    id: z.string(),
    name: z.string(),
    image: z.string().nullable(),
    title: z.string(),
    postCount: z.number().int(),
    reactionCount: z.number().int(),
    commentCount: z.number().int(),
    shareCount: z.number().int(),
    score: z.number().int(),
  })
  .meta({ id: 'LeaderboardEntry' });

export const listContributors = defineRoute({
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
});

export const getLeaderboard = defineRoute({
  name: 'get-leaderboard',
  area: 'feed',
  method: 'GET',
  path: `${API_PREFIX}/people/leaderboard`,
  auth: 'session',
  summary: 'People by score received (reactions ×1, comments ×2, shares ×3) in the period; scores above zero only.',
  query: z.strictObject({ period: z.enum(['week', 'month', 'all']).optional().default('all'), limit: limitParam() }),
  status: 200,
  response: z.array(LeaderboardEntry),
  access: reads,
});

// ---------------------------------------------------------------- post media (decisions 6)

const media: RouteAccess = { table: 'write', bucket: [{ prefix: 'posts/', actions: ['read', 'write'] }] };
export const UploadedFile = z
  .object({
    path: z.string(),
    mimeType: z.string(),
    sizeBytes: z.number().int(),
    name: z.string(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
  })
  .meta({ id: 'UploadedPostFile' });

export const uploadPostFile = defineRoute({
  name: 'upload-post-file',
  area: 'files',
  method: 'POST',
  path: `${API_PREFIX}/files/posts`,
  auth: 'session',
  summary: 'Uploads an image (JPG, PNG, WebP, GIF) or a PDF up to 4 MB (multipart, one part named file).',
  multipart: { maxBytes: 4 * 1024 * 1024 },
  idempotent: true,
  status: 201,
  response: UploadedFile,
  errors: [400, 413],
  access: media,
  timeout: 29,
  memory: 1024,
});

export const createPostUpload = defineRoute({
  name: 'create-post-upload',
  area: 'files',
  method: 'POST',
  path: `${API_PREFIX}/files/posts/uploads`,
  auth: 'session',
  summary: 'A presigned PUT for larger images and documents (10 MB) and videos (MP4, WebM; 200 MB).',
  body: z.strictObject({
    name: z.string().min(1).max(200),
    mimeType: z.string().min(1).max(100),
    sizeBytes: z.number().int().positive(),
  }),
  idempotent: true,
  status: 201,
  response: z.object({ path: z.string(), uploadUrl: z.string(), expiresAt: isoDateTime() }),
  errors: [400, 413],
  access: media,
});

export const getPostFile = defineRoute({
  name: 'get-post-file',
  area: 'files',
  method: 'GET',
  path: `${API_PREFIX}/files/posts/{key}`,
  auth: 'session',
  summary: 'A post file: the bytes, or a 302 to a short-lived signed URL (large files, videos). Unknown key 404.',
  status: 200,
  raw: true,
  redirects: true,
  errors: [404],
  access: { bucket: [{ prefix: 'posts/', actions: ['read'] }] },
});

export const feedRoutes = [
  createPost,
  listPosts,
  getPost,
  updatePost,
  deletePost,
  sharePost,
  reactToPost,
  removePostReaction,
  bookmarkPost,
  unbookmarkPost,
  hidePost,
  unhidePost,
  votePoll,
  closePoll,
  listPollVoters,
  listComments,
  createComment,
  listCommentReplies,
  updateComment,
  deleteComment,
  voteComment,
  listRecognitions,
  listPersonRecognitions,
  followPerson,
  unfollowPerson,
  listContributors,
  getLeaderboard,
  uploadPostFile,
  createPostUpload,
  getPostFile,
];
