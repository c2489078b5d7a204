import { ContentReport, REPORT_REASONS, ReportFiling, ReportQuota } from '../../moderation/entities.ts';
import * as z from '../../util/zod.ts';
import { pageQuery } from '../query.ts';
import { API_PREFIX, declared, defineRoute, type RouteAccess } from '../route-def.ts';
import { isoDateTime, page } from '../schemas/common.ts';
import { FEED_WRITES, NOTIFIES } from '../writes.ts';

/*
 * Content reports and their moderation (beyond the specification; docs/moderation.md). Filing a report
 * may hide the item (the reporters' threshold), so it writes what hiding a post or comment writes.
 */
const reporting: RouteAccess = { table: 'write', writes: [...FEED_WRITES, ContentReport, ReportFiling, ReportQuota] };
// A review that finds the item deleted closes its report, filings included (shared/moderation/cleanup.ts).
const moderating: RouteAccess = {
  table: 'write',
  writes: [...FEED_WRITES, ...NOTIFIES, ContentReport, ReportFiling],
  sns: true,
};

const ReportBody = /* @__PURE__ */ declared(() =>
  z.strictObject({
    reason: z.described(z.enum(REPORT_REASONS), 'Why it is reported'),
    details: z.described(
      z.optional(z.string().check(z.trim()).check(z.maxLength(1000))),
      'What a moderator should know (at most 1000 characters)',
    ),
  }),
);

const FiledReport = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      reportId: z.described(z.string(), "The reported item's report (what moderators review)"),
      reason: z.enum(REPORT_REASONS),
      createdAt: isoDateTime(),
    }),
    { id: 'FiledReport' },
  ),
);

const ContentReportView = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.described(z.string(), '`post-<postId>` or `comment-<commentId>`'),
      kind: z.enum(['post', 'comment']),
      postId: z.string(),
      commentId: z.nullable(z.string()),
      authorId: z.described(z.string(), "The reported item's author"),
      status: z.enum(['open', 'dismissed', 'actioned']),
      reporterCount: z.described(z.number().check(z.int()), 'Distinct people who reported it since its last review'),
      reasons: z.described(
        z.partialRecord(z.enum(REPORT_REASONS), z.number().check(z.int())),
        'Reports since its last review, per reason',
      ),
      firstReportedAt: isoDateTime(),
      lastReportedAt: isoDateTime(),
      hidden: z.described(z.boolean(), 'Hidden by the reporters\u2019 threshold until reviewed'),
      reviewedAt: z.nullable(isoDateTime()),
      note: z.described(z.nullable(z.string()), 'The moderator\u2019s note to the author'),
    }),
    { id: 'ContentReport' },
  ),
);

/** Filing a report of a post or a comment: the same body, answer and refusals. */
const reportRoute = <N extends string, P extends string>(name: N, path: P, summary: string) =>
  defineRoute({
    name,
    area: 'moderation',
    method: 'POST',
    path,
    auth: 'session',
    summary,
    body: ReportBody,
    idempotent: true,
    status: 201,
    response: FiledReport,
    errors: [400, 403, 404, 409, 429],
    access: reporting,
  });

export const reportPostRoute = /* @__PURE__ */ declared(() =>
  reportRoute(
    'report-post',
    `${API_PREFIX}/posts/{postId}/report`,
    'Reports a post to the moderators (one open report per person per post; 403 for your own post, 409 when your report is still open, 429 past the daily limit). Its author never learns who reported.',
  ),
);

export const reportCommentRoute = /* @__PURE__ */ declared(() =>
  reportRoute(
    'report-comment',
    `${API_PREFIX}/posts/{postId}/comments/{commentId}/report`,
    'Reports a comment to the moderators, as a post is reported.',
  ),
);

export const listReportsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'admin-list-reports',
    area: 'moderation',
    method: 'GET',
    path: `${API_PREFIX}/admin/reports`,
    auth: 'super_admin',
    summary:
      'Reports grouped per reported item, with counts per reason and no reporter named: open ones newest first, or those reviewed in a month.',
    query: z.strictObject({
      ...pageQuery(),
      status: z._default(z.enum(['open', 'reviewed']), 'open'),
      month: z.described(
        z.optional(z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be YYYY-MM'))),
        'With status=reviewed: the month of the reviews (YYYY-MM, UTC; default the current one)',
      ),
    }),
    status: 200,
    response: page(ContentReportView),
    errors: [400],
    access: { table: 'read' },
  }),
);

export const reviewReportRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'admin-review-report',
    area: 'moderation',
    method: 'PATCH',
    path: `${API_PREFIX}/admin/reports/{reportId}`,
    auth: 'super_admin',
    audit: { action: 'report.review', target: { params: ['reportId'] } },
    summary:
      'Decides an open report: `dismiss` (an item the threshold hid is shown again) or `hide` (the item is hidden and its author told, with the note). 409 when it was already reviewed.',
    body: z.strictObject({
      action: z.enum(['dismiss', 'hide']),
      note: z.described(
        z.optional(z.string().check(z.trim()).check(z.maxLength(1000))),
        'Told to the author with a hide',
      ),
    }),
    status: 200,
    response: ContentReportView,
    errors: [404, 409],
    access: moderating,
  }),
);

export const moderationRoutes = [reportPostRoute, reportCommentRoute, listReportsRoute, reviewReportRoute];
