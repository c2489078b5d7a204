import {
  MARKS,
  PostSeen,
  ReachDay,
  ReachSettings,
  ReachSlice,
  ReachTotal,
  ReadReceiptChoice,
  SLICINGS,
} from '../../reach/entities.ts';
import { MAX_DAYS } from '../../reach/rankings.ts';
import { SEEN_MAX } from '../../reach/seen.ts';
import { MAX_THRESHOLD, MIN_THRESHOLD } from '../../reach/settings.ts';
import * as z from '../../util/zod.ts';
import { pageQuery } from '../query.ts';
import { API_PREFIX, declared, defineRoute, type RouteAccess } from '../route-def.ts';
import { isoDateTime, Mention, nullableIso } from '../schemas/common.ts';

/** Reach and read receipts (issue 48 items 4 and 5, beyond the specification; docs/reach.md). */

const marksWrites: RouteAccess = { table: 'write', writes: [PostSeen, ReachTotal, ReachDay, ReachSlice] };
const reads: RouteAccess = { table: 'read' };

const countFields = () => ({
  targeted: z.described(z.number().check(z.int()), 'People the post was for when it was published'),
  delivered: z.described(z.number().check(z.int()), 'Of them, those with an account signed in at least once then'),
  ...Object.fromEntries(MARKS.map((m) => [m, z.number().check(z.int())])),
});
const marksFields = () => Object.fromEntries(MARKS.map((m) => [m, z.number().check(z.int())]));

const postId = () => z.described(z.string().check(z.regex(/^[0-9a-z]{22}$/, 'must be a post id')), 'A post id');

const Slice = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      value: z.described(z.nullable(z.string()), "The slice's value (null: people without one)"),
      ...countFields(),
    }),
    { id: 'ReachSlice' },
  ),
);

export const PostReach = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      postId: z.string(),
      publishedAt: isoDateTime(),
      targetedAt: z.described(nullableIso(), 'When the audience at publish was counted (null: not yet)'),
      ...countFields(),
      by: z.nullable(z.enum(SLICINGS)),
      slices: z.array(Slice),
      suppressed: z.described(z.number().check(z.int()), 'Slices withheld as too small or as revealing one too small'),
      threshold: z.number().check(z.int()),
      days: z.array(z.object({ day: z.string(), ...marksFields() })),
    }),
    { id: 'PostReach' },
  ),
);

const RankingRow = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      postId: z.string(),
      publishedAt: nullableIso(),
      audienceId: z.nullable(z.string()),
      ...countFields(),
      slices: z.optional(z.array(Slice)),
      suppressed: z.optional(z.number().check(z.int())),
    }),
    { id: 'ReachRankingRow' },
  ),
);

const Settings = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      suppressionThreshold: z.number().check(z.int()),
      readReceipts: z.boolean(),
      updatedAt: nullableIso(),
    }),
    { id: 'ReachSettings' },
  ),
);

const Choice = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ optedOut: z.boolean(), updatedAt: nullableIso() }), { id: 'ReadReceiptChoice' }),
);

const day = () => z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)'));

export const recordSeenRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'record-seen',
    area: 'reach',
    method: 'POST',
    path: `${API_PREFIX}/posts/seen`,
    auth: 'session',
    summary: `Records that the caller has seen these posts (1 to ${SEEN_MAX} ids; idempotent per person and post). Posts that do not exist, are hidden, the caller may not see or wrote are ignored.`,
    body: z.strictObject({ postIds: z.array(postId()).check(z.minLength(1)).check(z.maxLength(SEEN_MAX)) }),
    status: 204,
    errors: [400],
    access: marksWrites,
  }),
);

export const getPostReachRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-post-reach',
    area: 'reach',
    method: 'GET',
    path: `${API_PREFIX}/admin/posts/{postId}/reach`,
    auth: 'super_admin',
    summary:
      "A post's reach: targeted, delivered, seen, reacted, commented, acknowledged, by day, and with `by` per slice (small slices suppressed).",
    query: z.strictObject({ by: z.optional(z.enum(SLICINGS)) }),
    status: 200,
    response: PostReach,
    errors: [400, 404],
    access: reads,
  }),
);

const rankingsQuery = () =>
  z.strictObject({
    ...pageQuery(),
    from: day(),
    to: day(),
    audience: z.described(
      z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
      'Only posts targeted to this audience (its id)',
    ),
    groupBy: z.described(z.optional(z.enum(SLICINGS)), "Each row's slices by this (small slices suppressed)"),
  });

export const listReachRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-reach',
    area: 'reach',
    method: 'GET',
    path: `${API_PREFIX}/admin/reach`,
    auth: 'super_admin',
    summary: `Rankings: the posts published from \`from\` to \`to\` (UTC days, at most ${MAX_DAYS}), most seen first; \`audience\`: only posts targeted to that audience; \`groupBy\`: each row's slices. The same page as CSV: \`/admin/reach.csv\`.`,
    query: rankingsQuery(),
    status: 200,
    response: z.object({ items: z.array(RankingRow), nextCursor: z.nullable(z.string()) }),
    errors: [400],
    access: reads,
  }),
);

export const listReachCsvRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-reach-csv',
    area: 'reach',
    method: 'GET',
    path: `${API_PREFIX}/admin/reach.csv`,
    auth: 'super_admin',
    summary:
      "The rankings page as CSV (text/csv): one row per post, or with `groupBy` a row per post and one per shown slice; the next page's cursor in the `X-Next-Cursor` header.",
    query: rankingsQuery(),
    status: 200,
    raw: true,
    responseHeaders: [
      {
        name: 'X-Next-Cursor',
        description: "The next page's cursor (absent on the last page)",
        schema: { type: 'string' },
      },
    ],
    errors: [400],
    access: reads,
  }),
);

export const getReachSettingsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-reach-settings',
    area: 'reach',
    method: 'GET',
    path: `${API_PREFIX}/admin/settings/reach`,
    auth: 'super_admin',
    summary: "The company's reach settings: the smallest slice shown, and whether authors see read receipts.",
    status: 200,
    response: Settings,
    access: reads,
  }),
);

export const updateReachSettingsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'update-reach-settings',
    area: 'reach',
    method: 'PATCH',
    path: `${API_PREFIX}/admin/settings/reach`,
    auth: 'super_admin',
    audit: { action: 'reach.settings.update', target: {} },
    summary: `Changes the reach settings: \`suppressionThreshold\` (${MIN_THRESHOLD} to ${MAX_THRESHOLD}, default 5), \`readReceipts\` (default off).`,
    body: z.strictObject({
      suppressionThreshold: z.optional(
        z.number().check(z.int()).check(z.gte(MIN_THRESHOLD)).check(z.lte(MAX_THRESHOLD)),
      ),
      readReceipts: z.optional(z.boolean()),
    }),
    status: 200,
    response: Settings,
    errors: [400],
    access: { table: 'write', writes: [ReachSettings] },
  }),
);

export const getReadReceiptChoiceRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-read-receipt-choice',
    area: 'reach',
    method: 'GET',
    path: `${API_PREFIX}/users/me/read-receipts`,
    auth: 'session',
    summary: "Whether the caller opted out of read receipts (authors then never see them among a post's readers).",
    status: 200,
    response: Choice,
    access: reads,
  }),
);

export const setReadReceiptChoiceRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'set-read-receipt-choice',
    area: 'reach',
    method: 'PUT',
    path: `${API_PREFIX}/users/me/read-receipts`,
    auth: 'session',
    summary: 'Opts the caller out of read receipts (`optedOut: true`), or back in; they still count in totals.',
    body: z.strictObject({ optedOut: z.boolean() }),
    status: 200,
    response: Choice,
    errors: [400],
    access: { table: 'write', writes: [ReadReceiptChoice] },
  }),
);

export const listSeenByRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-seen-by',
    area: 'reach',
    method: 'GET',
    path: `${API_PREFIX}/posts/{postId}/seen-by`,
    auth: 'session',
    summary:
      "Who has seen the caller's post, newest first (read receipts: only while the company has them on, only to the author; people who opted out are left out).",
    query: z.strictObject({ ...pageQuery() }),
    status: 200,
    response: z.object({
      items: z.array(z.object({ person: Mention, seenAt: isoDateTime() })),
      nextCursor: z.nullable(z.string()),
    }),
    errors: [400, 403, 404],
    access: reads,
  }),
);

export const reachRoutes = [
  recordSeenRoute,
  getPostReachRoute,
  listReachRoute,
  listReachCsvRoute,
  getReachSettingsRoute,
  updateReachSettingsRoute,
  getReadReceiptChoiceRoute,
  setReadReceiptChoiceRoute,
  listSeenByRoute,
];
