import { REACTIONS, RECOGNITION_CATEGORIES } from '../../feed/model.ts';
import * as z from '../../util/zod.ts';
import { declared } from '../route-def.ts';
import { audienceChoice } from '../routes/audiences.ts';
import { isoDateTime, Mention, nonBlank, nullableIso, personCardFields } from './common.ts';

/** The feed's shapes: posts, polls, comments, the contributors and the leaderboard, and a post's body. */
export const Reaction = /* @__PURE__ */ declared(() => z.enum(REACTIONS));
export const RecognitionCategory = /* @__PURE__ */ declared(() => z.enum(RECOGNITION_CATEGORIES));

// ---------------------------------------------------------------- shapes

export const Poll = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      question: z.string(),
      description: z.string(),
      options: z.array(z.object({ id: z.string(), text: z.string(), votes: z.nullable(z.number().check(z.int())) })),
      totalVotes: z.number().check(z.int()),
      viewerOptionId: z.nullable(z.string()),
      closesAt: isoDateTime(),
      isClosed: z.boolean(),
    }),
    { id: 'Poll' },
  ),
);

const DocumentRef = /* @__PURE__ */ declared(() =>
  z.object({ url: z.string(), name: z.string(), mimeType: z.string(), sizeBytes: z.number().check(z.int()) }),
);

export const Acknowledgement = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      required: z.literal(true),
      dueAt: nullableIso(),
      acknowledgedAt: z.described(nullableIso(), "The reader's acknowledgement; null while they have not acknowledged"),
      acknowledged: z.described(
        z.optional(z.number().check(z.int())),
        'Super admins only: people who acknowledged (exact)',
      ),
      pending: z.described(z.optional(z.number().check(z.int())), 'Super admins only: people who still must (exact)'),
    }),
    { id: 'Acknowledgement' },
  ),
);

/** A targeted post's audience as its author gave it (docs/audiences.md, "Targeted content"). */
const PostAudienceView = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.described(z.optional(z.string()), 'The named audience (GET /admin/audiences/{id})'),
      rule: z.described(z.optional(z.looseObject({})), 'An AudienceRule, as given'),
      dynamic: z.described(z.optional(z.boolean()), 'true: people who join the audience later see it too'),
    }),
    { id: 'PostAudience' },
  ),
);

const postFields = /* @__PURE__ */ declared(() => ({
  id: z.string(),
  author: z.extend(Mention, { title: z.string() }),
  content: z.string(),
  mentions: z.array(Mention),
  tags: z.array(z.string()),
  images: z.described(z.array(z.string()), 'File paths under /api/v1/files/posts/'),
  videos: z.array(z.string()),
  documents: z.array(DocumentRef),
  poll: z.nullable(Poll),
  recognition: z.nullable(z.object({ recipient: Mention, category: RecognitionCategory, message: z.string() })),
  isAnnouncement: z.boolean(),
  isHidden: z.boolean(),
  reactions: z.described(
    z.array(z.object({ reaction: Reaction, count: z.number().check(z.int()) })),
    'Busiest first; zero counts left out',
  ),
  upvoteCount: z.described(z.number().check(z.int()), 'Every reaction, dislikes included'),
  viewerReaction: z.nullable(Reaction),
  commentCount: z.number().check(z.int()),
  shareCount: z.described(z.number().check(z.int()), 'Shares by people other than the author'),
  hasBookmarked: z.boolean(),
  canManage: z.boolean(),
  createdAt: isoDateTime(),
  updatedAt: isoDateTime(),
  editedAt: nullableIso(),
  publishAt: z.described(
    z.optional(isoDateTime()),
    'Only on a scheduled post, shown to its author: when it will be published (docs/scheduled-posts.md)',
  ),
  scheduleFailure: z.described(
    z.optional(z.string()),
    'Only on a scheduled post that could not be published at its moment: why',
  ),
  acknowledgement: z.described(
    z.optional(Acknowledgement),
    'Present only on a must-read announcement (docs/must-read.md): what the reader owes',
  ),
  audience: z.described(
    z.optional(PostAudienceView),
    'Present only on a targeted post, shown to its author and super admins: who it is for (docs/audiences.md)',
  ),
}));

export const SharedPost = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ ...postFields, sharedPost: z.null() }), { id: 'SharedPost' }),
);
export const Post = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ ...postFields, sharedPost: z.nullable(SharedPost) }), { id: 'Post' }),
);

export const Comment = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      postId: z.string(),
      parentId: z.nullable(z.string()),
      content: z.string(),
      mentions: z.array(Mention),
      author: Mention,
      likeCount: z.number().check(z.int()),
      dislikeCount: z.number().check(z.int()),
      viewerVote: z.nullable(z.enum(['like', 'dislike'])),
      replyCount: z.number().check(z.int()),
      createdAt: isoDateTime(),
      editedAt: nullableIso(),
    }),
    { id: 'Comment' },
  ),
);

// ---------------------------------------------------------------- inputs

const filePath = /* @__PURE__ */ declared(() => z.string().check(z.minLength(1)).check(z.maxLength(300)));
export const PostBody = /* @__PURE__ */ declared(() =>
  z.strictObject({
    content: z.nullish(z.string().check(z.maxLength(10000, 'must be at most 10000 characters'))),
    images: z.optional(z.array(filePath).check(z.maxLength(10, 'at most 10 images'))),
    videos: z.optional(z.array(filePath).check(z.maxLength(4, 'at most 4 videos'))),
    documents: z.optional(
      z
        .array(
          z.strictObject({
            url: filePath,
            name: z.string().check(z.maxLength(200, 'must be at most 200 characters')),
            mimeType: z.string().check(z.maxLength(100)),
            sizeBytes: z.number().check(z.int()).check(z.gte(0)),
          }),
        )
        .check(z.maxLength(10, 'at most 10 documents')),
    ),
    poll: z.nullish(
      z.strictObject({
        question: nonBlank(1, 300),
        description: z.optional(z.string().check(z.maxLength(1000, 'must be at most 1000 characters'))),
        options: z
          .array(nonBlank(1, 200))
          .check(z.minLength(2, 'a poll needs 2 to 10 options'))
          .check(z.maxLength(10, 'a poll needs 2 to 10 options')),
        closesAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time' }),
      }),
    ),
    recognition: z.nullish(
      z.strictObject({
        recipientId: z.string().check(z.minLength(1)).check(z.maxLength(200)),
        category: RecognitionCategory,
        message: z.optional(z.string().check(z.maxLength(1000, 'must be at most 1000 characters'))),
      }),
    ),
    isAnnouncement: z.optional(z.boolean()),
    publishAt: z.described(
      z.optional(z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time' })),
      'Schedules the post for this moment (in the future, at most a year ahead): hidden from everyone but its author until then (docs/scheduled-posts.md). On PATCH only a scheduled post takes it, unchanged.',
    ),
  }),
);

/** Creating a post: the whole post, and (super admins' announcements only) the acknowledgement it asks for. */
export const CreatePostBody = /* @__PURE__ */ declared(() =>
  z.extend(PostBody, {
    audience: audienceChoice(
      'true: people who join the audience after publishing see it too; else frozen at publish',
      'Who the post is for (exactly one of id and rule): visible only to them, its author and super admins; absent, the whole company (docs/audiences.md). A member may target only an audience they are in, or people all under them.',
    ),
    acknowledgement: z.nullish(
      z.strictObject({
        required: z.literal(true),
        dueAt: z.nullish(z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time' })),
      }),
    ),
  }),
);

export const AcknowledgementsPage = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      items: z.array(z.object({ person: Mention, acknowledgedAt: nullableIso() })),
      nextCursor: z.nullable(z.string()),
      acknowledged: z.number().check(z.int()),
      pending: z.number().check(z.int()),
    }),
    { id: 'AcknowledgementsPage' },
  ),
);

export const Contributor = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      ...personCardFields(),
      note: z.string(),
      isFeatured: z.boolean(),
      postCount: z.number().check(z.int()),
    }),
    { id: 'Contributor' },
  ),
);

export const LeaderboardEntry = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      rank: z.number().check(z.int()),
      ...personCardFields(),
      postCount: z.number().check(z.int()),
      reactionCount: z.number().check(z.int()),
      commentCount: z.number().check(z.int()),
      shareCount: z.number().check(z.int()),
      score: z.number().check(z.int()),
    }),
    { id: 'LeaderboardEntry' },
  ),
);
