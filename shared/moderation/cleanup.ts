import type { DynamoDBRecord } from 'aws-lambda';
import { PRESENT } from '../db/entity.ts';
import { isConditionFailure, transact } from '../db/table.ts';
import { Comment, Post } from '../feed/entities.ts';
import { toItemChange } from '../live/change-feed.ts';
import { ContentReport, ReportFiling, reportIdOf } from './entities.ts';

/**
 * A deleted post's or comment's report goes with it (docs/moderation.md): nothing is left to review,
 * so it leaves the open queue, and its filings (who reported it) are removed with it. Run by the
 * feed's stream consumer on the item's removal, in the background (O(filings), never on a request
 * path), and by a review that finds the item gone.
 */
export const reportCleanupFilters: Record<string, unknown>[] = [
  { eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: [Post.name, Comment.name] } } } },
];

/** Removes a report and every filing under it; a report already gone is nothing to do. */
export async function closeReport(reportId: string): Promise<void> {
  for (const filing of await ReportFiling.queryAll({ key: { reportId } })) {
    await transact([ReportFiling.remove(filing)]);
  }
  await transact([ContentReport.remove({ id: reportId }, PRESENT)]).catch((err: unknown) =>
    isConditionFailure(err) ? undefined : Promise.reject(err),
  );
}

/** The reports of the posts and comments these stream records remove. */
export async function closeReportsOfRemoved(records: readonly DynamoDBRecord[]): Promise<void> {
  for (const r of records) {
    if (r.eventName !== 'REMOVE') continue;
    const item = toItemChange(r).oldImage;
    if (!item) continue;
    if (Post.is(item)) await closeReport(reportIdOf({ postId: item.id }));
    else if (Comment.is(item)) await closeReport(reportIdOf({ postId: item.postId, commentId: item.id }));
  }
}
