import { env } from '../config/env.ts';
import { atRevision } from '../db/entity.ts';
import { page } from '../db/paging.ts';
import { failedConditions, retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { conflict, forbidden, notFound, tooMany } from '../errors.ts';
import { readableComment, setCommentHidden } from '../feed/comments.ts';
import { Comment, type CommentItem, Post, type PostItem } from '../feed/entities.ts';
import { looksLikeId } from '../feed/model.ts';
import type { Viewer } from '../feed/people.ts';
import { readablePost, setHidden } from '../feed/posts.ts';
import { notify, previewOf } from '../notifications/notifications.ts';
import { closeReport } from './cleanup.ts';
import {
  ContentReport,
  type ContentReportItem,
  monthOf,
  ReportFiling,
  ReportQuota,
  type ReportReason,
  type ReportTarget,
  reportIdOf,
} from './entities.ts';

/**
 * Content reports (docs/moderation.md). A person reports a post or a comment they can see; the item's
 * report gathers the round's distinct reporters and reasons in the filing's own transaction. Past the
 * threshold (REPORT_HIDE_THRESHOLD) the item is hidden until a moderator reviews it. Nobody but the
 * reporter ever sees who reported: the report holds counts, the change feed never names a reporter,
 * and the author's notification names nobody.
 */

/** Reports one person may file per UTC day (counted with the filing, so a burst cannot overshoot). */
export const REPORTS_PER_DAY = 20;
const DAY_MS = 86_400_000;

function parseReportId(id: string): ReportTarget | { commentOnly: string } | undefined {
  const [kind, itemId] = [id.slice(0, id.indexOf('-')), id.slice(id.indexOf('-') + 1)];
  if (!looksLikeId(itemId)) return undefined;
  if (kind === 'post') return { postId: itemId };
  if (kind === 'comment') return { commentOnly: itemId };
  return undefined;
}

/** What was reported, as the reporter may see it (404 otherwise), and whose it is. */
async function reportedItem(
  caller: Viewer,
  t: ReportTarget,
): Promise<{ post: PostItem; comment?: CommentItem; authorId: string }> {
  if (!t.commentId) {
    const post = await readablePost(caller, t.postId, true);
    return { post, authorId: post.authorId };
  }
  const { comment, post } = await readableComment(caller, t.commentId);
  if (comment.postId !== t.postId) throw notFound('No such comment.');
  return { post, comment, authorId: comment.authorId };
}

function quotaWrite(userId: string, now: Date): TransactItem {
  const day = now.toISOString().slice(0, 10);
  return ReportQuota.update(
    { userId, day },
    {
      UpdateExpression: 'ADD reports :one SET #entity = :entity, userId = :user, #day = :day, #ttl = :ttl',
      ConditionExpression: 'attribute_not_exists(reports) OR reports < :max',
      ExpressionAttributeNames: { '#entity': 'entity', '#day': 'day', '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':one': 1,
        ':entity': ReportQuota.name,
        ':user': userId,
        ':day': day,
        ':ttl': Math.floor((Date.parse(`${day}T00:00:00Z`) + 2 * DAY_MS) / 1000),
        ':max': REPORTS_PER_DAY,
      },
    },
  );
}

function quotaReached(now: Date) {
  const next = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`) + DAY_MS;
  return tooMany(
    `You reached today's limit of ${REPORTS_PER_DAY} reports; it opens again at midnight UTC.`,
    Math.max(1, Math.ceil((next - now.getTime()) / 1000)),
  );
}

/**
 * Files the caller's report. One open report per person per item: a second while the item's report is
 * open is a 409; after a review, a report opens the next round. Their own content is not theirs to report.
 */
export async function fileReport(
  caller: Viewer,
  target: ReportTarget,
  input: { reason: ReportReason; details?: string },
): Promise<{ reportId: string; reason: ReportReason; createdAt: string }> {
  const item = await reportedItem(caller, target);
  if (item.authorId === caller.userId) throw forbidden('You cannot report what you wrote.');
  const id = reportIdOf(target);
  const filed = await retryOnConflict(
    async () => {
      const now = new Date();
      const at = now.toISOString();
      const before = await ContentReport.get({ id }, { consistent: true });
      const round = !before ? 1 : before.status === 'open' ? before.round : before.round + 1;
      const fresh = before?.status !== 'open';
      const after: ContentReportItem = ContentReport.item({
        id,
        kind: target.commentId ? 'comment' : 'post',
        postId: target.postId,
        commentId: target.commentId ?? null,
        authorId: item.authorId,
        status: 'open',
        round,
        reporterCount: (fresh ? 0 : before.reporterCount) + 1,
        reasons: {
          ...(fresh ? {} : before.reasons),
          [input.reason]: ((fresh ? 0 : before.reasons[input.reason]) ?? 0) + 1,
        },
        firstReportedAt: fresh ? at : before.firstReportedAt,
        lastReportedAt: at,
        autoHidden: fresh ? false : before.autoHidden,
        reviewedAt: fresh ? null : before.reviewedAt,
        reviewMonth: fresh ? null : before.reviewMonth,
        reviewedBy: fresh ? null : before.reviewedBy,
        note: fresh ? null : before.note,
        rev: (before?.rev ?? 0) + 1,
      });
      const writes: TransactItem[] = [
        ReportFiling.create({
          reportId: id,
          round,
          reporterId: caller.userId,
          reason: input.reason,
          details: input.details?.trim() || null,
          createdAt: at,
        }),
        quotaWrite(caller.userId, now),
        before ? ContentReport.change(before, after, atRevision(before.rev)) : ContentReport.create(after),
      ];
      try {
        await transact(writes);
      } catch (err) {
        const failed = failedConditions(err);
        if (failed.includes(0)) throw conflict('You already reported this; it is waiting for review.');
        if (failed.includes(1)) throw quotaReached(now);
        throw err;
      }
      return after;
    },
    { final: (err) => !(err instanceof Error && err.name === 'TransactionCanceledException') },
  );
  await hideWhenOverThreshold(filed);
  return { reportId: id, reason: input.reason, createdAt: filed.lastReportedAt };
}

/**
 * Past the threshold of distinct reporters the item is hidden until reviewed. A step of its own after
 * the filing (hiding writes the item's lists and website record): a failure here is mended by the
 * next report, which finds the report over the threshold and not yet hidden.
 */
async function hideWhenOverThreshold(report: ContentReportItem): Promise<void> {
  const threshold = env.reportHideThreshold;
  if (threshold === 0 || report.reporterCount < threshold || report.autoHidden) return;
  if ((await freshReporters(report, threshold)) < threshold) return;
  await hideItem(report, null);
  await retryOnConflict(async () => {
    const before = await ContentReport.get({ id: report.id }, { consistent: true });
    if (before?.status !== 'open' || before.autoHidden) return;
    await transact([
      ContentReport.change(before, { ...before, autoHidden: true, rev: before.rev + 1 }, atRevision(before.rev)),
    ]);
  });
}

/**
 * The reporters of this round who reported the item in no earlier round, counted up to `enough`: a
 * round after a review hides the item only with new reporters (a moderator's review is not undone by
 * the same people reporting again; an admin may still hide it). Read only once a round reaches the
 * threshold and the item is not hidden: the round's filings a page at a time, each page's earlier
 * filings in one batch read (O(reporters × rounds), the rounds bounded by the reviews).
 */
async function freshReporters(report: ContentReportItem, enough: number): Promise<number> {
  if (report.round === 1) return report.reporterCount;
  const earlier = Array.from({ length: report.round - 1 }, (_, n) => n + 1);
  let fresh = 0;
  let cursor: string | undefined;
  do {
    const found = await ReportFiling.query(
      { key: { reportId: report.id, round: report.round }, consistent: true },
      page({ limit: 100, cursor }),
    );
    const reporters = found.items.filter((f) => f.round === report.round).map((f) => f.reporterId);
    const before = await ReportFiling.getMany(
      reporters.flatMap((reporterId) => earlier.map((round) => ({ reportId: report.id, round, reporterId }))),
      { consistent: true },
    );
    const repeat = new Set(before.flatMap((f) => (f ? [f.reporterId] : [])));
    fresh += reporters.filter((id) => !repeat.has(id)).length;
    cursor = found.nextCursor ?? undefined;
  } while (cursor && fresh < enough);
  return fresh;
}

async function hideItem(report: ContentReportItem, moderator: Viewer | null, hidden = true): Promise<void> {
  if (report.commentId) await setCommentHidden(report.commentId, hidden);
  else await setHidden(moderator, report.postId, hidden);
}

// ------------------------------------------------------------------------------------------ moderators

/** Whether the reported post (and comment) is still there. */
async function reportedItemExists(r: ContentReportItem): Promise<boolean> {
  const [post, comment] = await Promise.all([
    Post.get({ id: r.postId }, { consistent: true }),
    r.commentId ? Comment.get({ id: r.commentId }, { consistent: true }) : undefined,
  ]);
  return !!post && (!r.commentId || !!comment);
}

/**
 * A report as the moderators' routes show it: the stored report's own fields (so the two never drift),
 * with `autoHidden` shown as `hidden` and the review bookkeeping (round, month, reviewer, rev) left out.
 */
export type ReportView = Pick<
  ContentReportItem,
  | 'id'
  | 'kind'
  | 'postId'
  | 'commentId'
  | 'authorId'
  | 'status'
  | 'reporterCount'
  | 'reasons'
  | 'firstReportedAt'
  | 'lastReportedAt'
  | 'reviewedAt'
  | 'note'
> & { hidden: boolean };

export const reportView = (r: ContentReportItem): ReportView => ({
  id: r.id,
  kind: r.kind,
  postId: r.postId,
  commentId: r.commentId,
  authorId: r.authorId,
  status: r.status,
  reporterCount: r.reporterCount,
  reasons: r.reasons,
  firstReportedAt: r.firstReportedAt,
  lastReportedAt: r.lastReportedAt,
  hidden: r.autoHidden,
  reviewedAt: r.reviewedAt,
  note: r.note,
});

/**
 * Reports grouped per item, one Query a page: open ones newest first, or those reviewed in a month
 * (`month`, YYYY-MM, default the current one) newest review first.
 */
export async function listReports(q: {
  status: 'open' | 'reviewed';
  month?: string;
  limit: number;
  cursor?: string;
}): Promise<{ items: ReportView[]; nextCursor: string | null }> {
  const pager = page({ limit: q.limit, cursor: q.cursor });
  const res =
    q.status === 'open'
      ? await ContentReport.query({ index: 'open', key: {}, forward: false }, pager)
      : await ContentReport.query(
          { index: 'reviewed', key: { reviewMonth: q.month ?? monthOf(new Date().toISOString()) }, forward: false },
          pager,
        );
  return { items: res.items.map(reportView), nextCursor: res.nextCursor };
}

/**
 * A moderator's decision on an open report: `dismiss` (what the threshold hid is shown again) or `hide`
 * (the item is hidden and its author told, with the note; the notification names nobody).
 */
export async function reviewReport(
  moderator: Viewer,
  id: string,
  input: { action: 'dismiss' | 'hide'; note?: string },
): Promise<ReportView> {
  if (!parseReportId(id)) throw notFound('No such report.');
  const before = await ContentReport.get({ id }, { consistent: true });
  if (!before) throw notFound('No such report.');
  if (before.status !== 'open') throw conflict('This report was already reviewed.');
  if (!(await reportedItemExists(before))) {
    // Deleted meanwhile (its removal closes it in the background too): nothing is left to review.
    await closeReport(id);
    throw notFound('The reported item was deleted; its report is closed.');
  }
  if (input.action === 'hide') await hideItem(before, moderator);
  else if (before.autoHidden) await hideItem(before, moderator, false);
  const now = new Date().toISOString();
  const after: ContentReportItem = {
    ...before,
    status: input.action === 'hide' ? 'actioned' : 'dismissed',
    autoHidden: false,
    reviewedAt: now,
    reviewMonth: monthOf(now),
    reviewedBy: moderator.userId,
    note: input.note?.trim() || null,
    rev: before.rev + 1,
  };
  try {
    await transact([ContentReport.change(before, after, atRevision(before.rev))]);
  } catch (err) {
    if (failedConditions(err).includes(0)) throw conflict('The report changed meanwhile; read it again.');
    throw err;
  }
  if (input.action === 'hide') {
    const what = before.commentId ? 'comment' : 'post';
    await notify([
      {
        recipientId: before.authorId,
        kind: 'content_hidden',
        actorId: null,
        postId: before.postId,
        commentId: before.commentId,
        preview: previewOf(`A moderator hid your ${what}.${after.note ? ` ${after.note}` : ''}`),
      },
    ]);
  }
  return reportView(after);
}
