import * as z from '../../util/zod.ts';
import { WebsiteCounts, WebsiteEntry } from '../../website/entities.ts';
import { WEBSITE_STATUSES } from '../../website/status.ts';
import { cursorParam, limitParam, pageQuery } from '../query.ts';
import { type AnyRoute, API_PREFIX, declared, defineRoute, type RouteAccess } from '../route-def.ts';
import { isoDateTime, nullableIso, page } from '../schemas/common.ts';
import { RecognitionCategory } from '../schemas/feed.ts';

/*
 * Office updates: the super admins' review queue and the public
 * website feed. Public answers name people only by name, title and image, and carry signed media URLs.
 */
const A = `${API_PREFIX}/admin/website-posts`;
/** Signing media URLs needs read access to what they sign. */
const media = [
  { prefix: 'posts/', actions: ['read' as const] },
  { prefix: 'avatars/', actions: ['read' as const] },
];
// A review moves the post's website entry and the counts per status, nothing else of the post.
const reviewAccess: RouteAccess = {
  table: 'write',
  writes: [WebsiteEntry, WebsiteCounts],
  bucket: media,
  publicMedia: true,
};
const publicAccess: RouteAccess = { table: 'read', bucket: media, publicMedia: true };
/**
 * The website's answers are cached by browsers and the edge for a minute, served stale while
 * revalidating for ten more (docs/client-developers.md, "For website developers"): an approval shows within about a
 * minute, and the signed media URLs inside stay valid for far longer (shared/storage/public-urls.ts).
 */
const publicCache = { maxAge: 60, sMaxAge: 60, staleWhileRevalidate: 600 };

export const PublicPerson = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ name: z.string(), title: z.string(), image: z.nullable(z.string()) }), { id: 'PublicPerson' }),
);

const officeUpdateFields = /* @__PURE__ */ declared(() => ({
  id: z.string(),
  content: z.described(z.string(), 'Plain text; mentions rendered as names; render with line breaks, never as HTML'),
  tags: z.array(z.string()),
  isAnnouncement: z.boolean(),
  images: z.array(
    z.object({
      url: z.described(z.string(), '1200 px rendition, signed, valid about a day'),
      thumbnailUrl: z.described(
        z.nullable(z.string()),
        '400 px rendition, or null when the original was already smaller',
      ),
      width: z.nullable(z.number().check(z.int())),
      height: z.nullable(z.number().check(z.int())),
    }),
  ),
  videos: z.array(z.object({ url: z.string(), mimeType: z.string(), posterUrl: z.nullable(z.string()) })),
  recognition: z.nullable(z.object({ category: RecognitionCategory, message: z.string(), recipient: PublicPerson })),
  author: PublicPerson,
  createdAt: isoDateTime(),
  publishedAt: nullableIso(),
}));

export const OfficeUpdate = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object(officeUpdateFields), { id: 'OfficeUpdate' }),
);

export const WebsiteStatus = /* @__PURE__ */ declared(() => z.enum(WEBSITE_STATUSES));
export const WebsitePost = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      ...officeUpdateFields,
      status: WebsiteStatus,
      review: z.nullable(
        z.object({ reviewedAt: isoDateTime(), reviewer: z.nullable(z.string()), reason: z.nullable(z.string()) }),
      ),
      notShownPublicly: z.array(z.enum(['poll', 'documents'])),
    }),
    { id: 'WebsitePost' },
  ),
);

export const listWebsitePostsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-website-posts',
    area: 'office-updates',
    method: 'GET',
    path: A,
    auth: 'super_admin',
    summary: 'The review queue of one status (pending by default), newest post first.',
    query: z.strictObject({ status: z._default(z.optional(WebsiteStatus), 'pending'), ...pageQuery() }),
    status: 200,
    response: page(WebsitePost),
    access: { table: 'read', bucket: media, publicMedia: true },
  }),
);

export const getWebsiteCountsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-website-counts',
    area: 'office-updates',
    method: 'GET',
    path: `${A}/counts`,
    auth: 'super_admin',
    summary: 'How many posts are in each website status.',
    status: 200,
    response: z.withMeta(
      z.object({
        pending: z.number().check(z.int()),
        approved: z.number().check(z.int()),
        rejected: z.number().check(z.int()),
        unpublished: z.number().check(z.int()),
      }),
      { id: 'WebsiteCounts' },
    ),
    access: { table: 'read' },
  }),
);

/** Rejecting and unpublishing take the same optional reason and answer the same way. */
const withReason = /* @__PURE__ */ declared(
  () =>
    ({
      body: z.strictObject({ reason: z.nullish(z.string().check(z.maxLength(500, 'must be at most 500 characters'))) }),
      bodyOptional: true,
      status: 200,
      response: WebsitePost,
      errors: [400, 404, 409],
      access: reviewAccess,
    }) satisfies Partial<AnyRoute>,
);

export const approveWebsitePostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'approve-website-post',
    area: 'office-updates',
    method: 'POST',
    path: `${A}/{postId}/approve`,
    auth: 'super_admin',
    audit: { action: 'website_post.approve', target: { params: ['postId'] } },
    summary:
      'Puts a pending, rejected or unpublished post on the website (no body). With If-Unmodified-Since, only the version reviewed: an edit since is a 409.',
    headers: [
      {
        name: 'If-Unmodified-Since',
        description: [
          'Binds the approval to what the reviewer saw: send the `Date` of the answer that showed the post',
          '(the admin list). When the author edited the post at or after that moment (whole seconds: an edit',
          'in the same second counts), the answer is 409 and nothing changes; review the post again. A value',
          'that is not an HTTP date is a 400. Without the header, the post is approved as it is when the',
          'request arrives.',
        ].join(' '),
        schema: { type: 'string', examples: ['Wed, 25 Nov 2026 09:30:00 GMT'] },
      },
    ],
    status: 200,
    response: WebsitePost,
    errors: [404, 409],
    access: reviewAccess,
  }),
);

export const rejectWebsitePostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'reject-website-post',
    area: 'office-updates',
    method: 'POST',
    path: `${A}/{postId}/reject`,
    auth: 'super_admin',
    audit: { action: 'website_post.reject', target: { params: ['postId'] } },
    summary: 'Keeps a pending or unpublished post off the website, with an optional reason.',
    ...withReason,
  }),
);

export const unpublishWebsitePostRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'unpublish-website-post',
    area: 'office-updates',
    method: 'POST',
    path: `${A}/{postId}/unpublish`,
    auth: 'super_admin',
    audit: { action: 'website_post.unpublish', target: { params: ['postId'] } },
    summary: 'Takes an approved post off the website (it stays in the feed), with an optional reason.',
    ...withReason,
  }),
);

export const listOfficeUpdatesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-office-updates',
    area: 'office-updates',
    method: 'GET',
    path: `${API_PREFIX}/public/office-updates`,
    auth: 'public',
    cache: publicCache,
    summary: 'The public website feed: approved posts, newest publishedAt first (no session).',
    query: z.strictObject({ cursor: cursorParam(), limit: limitParam(24, 9) }),
    status: 200,
    response: page(OfficeUpdate),
    access: publicAccess,
  }),
);

export const getOfficeUpdateRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-office-update',
    area: 'office-updates',
    method: 'GET',
    path: `${API_PREFIX}/public/office-updates/{postId}`,
    auth: 'public',
    cache: publicCache,
    summary: 'One public office update; 404 alike for not approved, deleted or missing (no session).',
    status: 200,
    response: OfficeUpdate,
    errors: [404],
    access: publicAccess,
  }),
);

export const officeUpdateRoutes = [
  listWebsitePostsRoute,
  getWebsiteCountsRoute,
  approveWebsitePostRoute,
  rejectWebsitePostRoute,
  unpublishWebsitePostRoute,
  listOfficeUpdatesRoute,
  getOfficeUpdateRoute,
];
