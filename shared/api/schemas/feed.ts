import * as z from 'zod';
import { REACTIONS, RECOGNITION_CATEGORIES } from '../../feed/model.ts';
import { declared } from '../route-def.ts';
import { AudienceRule } from '../routes/audiences.ts';
import { isoDateTime, Mention, nonBlank, nullableIso } from './common.ts';

/** The feed's shapes: posts, polls, comments, the contributors and the leaderboard, and a post's body. */
export const Reaction = /* @__PURE__ */ declared(() => z.enum(REACTIONS));
export const RecognitionCategory = /* @__PURE__ */ declared(() => z.enum(RECOGNITION_CATEGORIES));

// ---------------------------------------------------------------- shapes

export const Poll = /* @__PURE__ */ declared(() =>
  z
    .object({
      question: z.string(),
      description: z.string(),
      options: z.array(z.object({ id: z.string(), text: z.string(), votes: z.number().int().nullable() })),
      totalVotes: z.number().int(),
      viewerOptionId: z.string().nullable(),
      closesAt: isoDateTime(),
      isClosed: z.boolean(),
    })
    .meta({ id: 'Poll' }),
);

const DocumentRef = /* @__PURE__ */ declared(() =>
  z.object({ url: z.string(), name: z.string(), mimeType: z.string(), sizeBytes: z.number().int() }),
);

export const Acknowledgement = /* @__PURE__ */ declared(() =>
  z
    .object({
      required: z.literal(true),
      dueAt: nullableIso(),
      acknowledgedAt: nullableIso().describe("The reader's acknowledgement; null while they have not acknowledged"),
      acknowledged: z.number().int().optional().describe('Super admins only: people who acknowledged (exact)'),
      pending: z.number().int().optional().describe('Super admins only: people who still must (exact)'),
    })
    .meta({ id: 'Acknowledgement' }),
);

/** A targeted post's audience as its author gave it (docs/audiences.md, "Targeted content"). */
const PostAudienceView = /* @__PURE__ */ declared(() =>
  z
    .object({
      id: z.string().optional().describe('The named audience (GET /admin/audiences/{id})'),
      rule: z.looseObject({}).optional().describe('An AudienceRule, as given'),
      dynamic: z.boolean().optional().describe('true: people who join the audience later see it too'),
    })
    .meta({ id: 'PostAudience' }),
);

const postFields = /* @__PURE__ */ declared(() => ({
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
  publishAt: isoDateTime()
    .optional()
    .describe('Only on a scheduled post, shown to its author: when it will be published (docs/scheduled-posts.md)'),
  scheduleFailure: z
    .string()
    .optional()
    .describe('Only on a scheduled post that could not be published at its moment: why'),
  acknowledgement: Acknowledgement.optional().describe(
    'Present only on a must-read announcement (docs/must-read.md): what the reader owes',
  ),
  audience: PostAudienceView.optional().describe(
    'Present only on a targeted post, shown to its author and super admins: who it is for (docs/audiences.md)',
  ),
}));

export const SharedPost = /* @__PURE__ */ declared(() =>
  z.object({ ...postFields, sharedPost: z.null() }).meta({ id: 'SharedPost' }),
);
export const Post = /* @__PURE__ */ declared(() =>
  z.object({ ...postFields, sharedPost: SharedPost.nullable() }).meta({ id: 'Post' }),
);

export const Comment = /* @__PURE__ */ declared(() =>
  z
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
    .meta({ id: 'Comment' }),
);

// ---------------------------------------------------------------- inputs

const filePath = /* @__PURE__ */ declared(() => z.string().min(1).max(300));
export const PostBody = /* @__PURE__ */ declared(() =>
  z.strictObject({
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
        options: z
          .array(nonBlank(1, 200))
          .min(2, 'a poll needs 2 to 10 options')
          .max(10, 'a poll needs 2 to 10 options'),
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
    publishAt: z.iso
      .datetime({ offset: true, message: 'must be an ISO 8601 date and time' })
      .optional()
      .describe(
        'Schedules the post for this moment (in the future, at most a year ahead): hidden from everyone but its author until then (docs/scheduled-posts.md). On PATCH only a scheduled post takes it, unchanged.',
      ),
  }),
);

/** Creating a post: the whole post, and (super admins' announcements only) the acknowledgement it asks for. */
export const CreatePostBody = /* @__PURE__ */ declared(() =>
  PostBody.extend({
    audience: z
      .strictObject({
        id: z.string().min(1).max(200).optional().describe('A named audience (docs/audiences.md)'),
        rule: AudienceRule.optional(),
        dynamic: z
          .boolean()
          .optional()
          .describe('true: people who join the audience after publishing see it too; else frozen at publish'),
      })
      .nullish()
      .describe(
        'Who the post is for (exactly one of id and rule): visible only to them, its author and super admins; absent, the whole company (docs/audiences.md). A member may target only an audience they are in, or people all under them.',
      ),
    acknowledgement: z
      .strictObject({
        required: z.literal(true),
        dueAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time' }).nullish(),
      })
      .nullish(),
  }),
);

export const AcknowledgementsPage = /* @__PURE__ */ declared(() =>
  z
    .object({
      items: z.array(z.object({ person: Mention, acknowledgedAt: nullableIso() })),
      nextCursor: z.string().nullable(),
      acknowledged: z.number().int(),
      pending: z.number().int(),
    })
    .meta({ id: 'AcknowledgementsPage' }),
);

export const Contributor = /* @__PURE__ */ declared(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      image: z.string().nullable(),
      title: z.string(),
      note: z.string(),
      isFeatured: z.boolean(),
      postCount: z.number().int(),
    })
    .meta({ id: 'Contributor' }),
);

export const LeaderboardEntry = /* @__PURE__ */ declared(() =>
  z
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
    .meta({ id: 'LeaderboardEntry' }),
);
