import { type EntityItem, entity, shape } from '../db/entity.ts';

/**
 * Content reports (docs/moderation.md), each kind declared once. A reported post or comment has one
 * `ContentReport`: what the moderators see and decide on, with the counts of the current round (the
 * reports since it was last reviewed). Each person's report is a `ReportFiling` under it, keyed by
 * round and reporter, so a person holds at most one open report per item and the counts move in the
 * filing's transaction. `ReportQuota` bounds how many reports a person files in a day.
 */

export const REPORT_REASONS = ['spam', 'harassment', 'hate', 'misinformation', 'confidential', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export type ReportStatus = 'open' | 'dismissed' | 'actioned';

export type ReportTarget = { postId: string; commentId?: string };

/** The report id of an item: one per post or comment, found from the item alone. */
export const reportIdOf = (t: ReportTarget) => (t.commentId ? `comment-${t.commentId}` : `post-${t.postId}`);

/** The month (UTC, YYYY-MM) a review falls in: the reviewed reports' partitions. */
export const monthOf = (iso: string) => iso.slice(0, 7);

export const ContentReport = entity({
  name: 'ContentReport',
  fields: shape<{
    /** `post-<postId>` or `comment-<commentId>`: one report per item, found from the item alone. */
    id: string;
    kind: 'post' | 'comment';
    postId: string;
    commentId: string | null;
    /** The reported item's author (never told who reported). */
    authorId: string;
    status: ReportStatus;
    /** 1 for the first round; a report after a review opens the next. */
    round: number;
    /** Distinct reporters of this round. */
    reporterCount: number;
    /** Reports of this round per reason. */
    reasons: Partial<Record<ReportReason, number>>;
    firstReportedAt: string;
    lastReportedAt: string;
    /** Hidden by the reporters' threshold, until reviewed. */
    autoHidden: boolean;
    reviewedAt: string | null;
    /** The month (YYYY-MM) of the last review: the reviewed reports' partition. */
    reviewMonth: string | null;
    reviewedBy: string | null;
    note: string | null;
    /** Moved by every write: each change is conditional on it. */
    rev: number;
  }>(),
  key: { pk: ['REPORT', 'id'], sk: ['REPORT'] },
  indexes: {
    /** Open reports, newest round first. */
    open: { index: 'gsi2', pk: ['REPORTS_OPEN'], sk: ['firstReportedAt', 'id'], when: (r) => r.status === 'open' },
    /** Reviewed reports by the month of their review (a partition per month). */
    reviewed: {
      index: 'gsi3',
      pk: ['REPORTS_REVIEWED', 'reviewMonth'],
      sk: ['reviewedAt', 'id'],
      when: (r) => r.status !== 'open' && !!r.reviewMonth,
    },
  },
});
export type ContentReportItem = EntityItem<typeof ContentReport>;

export const ReportFiling = entity({
  name: 'ReportFiling',
  fields: shape<{
    reportId: string;
    round: number;
    reporterId: string;
    reason: ReportReason;
    details: string | null;
    createdAt: string;
  }>(),
  key: { pk: ['REPORT', 'reportId'], sk: ['BY', 'round', 'reporterId'] },
});

export const ReportQuota = entity({
  name: 'ReportQuota',
  fields: shape<{ userId: string; day: string; reports: number; ttl: number }>(),
  key: { pk: ['REPORTQUOTA', 'userId', 'day'], sk: ['QUOTA'] },
  inPlace: true,
});
