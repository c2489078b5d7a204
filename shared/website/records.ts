import type { TransactItem } from '../db/table.ts';
import { WebsiteCounts, WebsiteEntry, type WebsiteEntryItem } from './entities.ts';
import type { WebsiteStatus } from './status.ts';

/**
 * The website side of a post: every new post that is not a share is a
 * candidate. Its record moves through pending → approved / rejected / unpublished; it is on the public
 * list only while approved and not hidden. Counts per status count records that are not hidden, and
 * move in the same transaction as the record.
 */
function countDeltas(before: WebsiteEntryItem | undefined, after: WebsiteEntryItem | undefined): TransactItem[] {
  const delta = new Map<WebsiteStatus, number>();
  if (before && !before.hidden) delta.set(before.status, (delta.get(before.status) ?? 0) - 1);
  if (after && !after.hidden) delta.set(after.status, (delta.get(after.status) ?? 0) + 1);
  const moves = [...delta].filter(([, d]) => d !== 0);
  if (moves.length === 0) return [];
  const names = Object.fromEntries(moves.map(([s]) => [`#${s}`, s]));
  const values = Object.fromEntries(moves.map(([s, d]) => [`:${s}`, d]));
  return [
    WebsiteCounts.update(
      {},
      {
        UpdateExpression: `SET entity = :entity ADD ${moves.map(([s]) => `#${s} :${s}`).join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':entity': WebsiteCounts.name },
      },
    ),
  ];
}

/**
 * The writes that move a post's website record from `before` (as read) to `after` (undefined =
 * removed), conditional on nobody having moved it meanwhile, with the counts.
 */
export function websiteWrites(
  before: WebsiteEntryItem | undefined,
  after: WebsiteEntryItem | undefined,
): TransactItem[] {
  const unchanged = before
    ? {
        ConditionExpression: '#status = :oldStatus AND #hidden = :oldHidden',
        ExpressionAttributeNames: { '#status': 'status', '#hidden': 'hidden' },
        ExpressionAttributeValues: { ':oldStatus': before.status, ':oldHidden': before.hidden },
      }
    : { ConditionExpression: 'attribute_not_exists(pk)' };
  const write: TransactItem[] = [];
  if (after) write.push(WebsiteEntry.put(after, { ...unchanged }));
  else if (before) write.push(WebsiteEntry.remove(before, { ...unchanged }));
  return [...write, ...countDeltas(before, after)];
}

/** A new post's record: pending, never reviewed. */
export function newCandidate(post: { id: string; createdAt: string; actorId: string }): WebsiteEntryItem {
  return WebsiteEntry.item({
    postId: post.id,
    status: 'pending',
    review: null,
    publishedAt: null,
    hidden: false,
    createdAt: post.createdAt,
    actorId: post.actorId,
  });
}

/** Editing an approved post puts it back to pending and off the website. */
export function afterEdit(e: WebsiteEntryItem, actorId: string): WebsiteEntryItem {
  return e.status === 'approved' ? { ...e, status: 'pending', publishedAt: null, actorId } : e;
}

export const afterHiding = (e: WebsiteEntryItem, hidden: boolean, actorId: string): WebsiteEntryItem => ({
  ...e,
  hidden,
  actorId,
});

export const getWebsiteEntry = (postId: string) => WebsiteEntry.get({ postId }, { consistent: true });
