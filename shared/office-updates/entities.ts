import { entity } from '../db/entity.ts';
import { officeUpdatesIndex, websiteCountsKey, websiteEntryKey, websiteQueueIndex } from '../db/keys.ts';
import type { WebsiteStatus } from './website.ts';

/** The office updates' entities (docs/data-model.md, Office updates): each item's key and indexes, declared once. */

export interface WebsiteReview {
  reviewedAt: string;
  reviewer: string | null;
  reason: string | null;
}

export interface WebsiteEntryItem {
  pk: string;
  sk: string;
  entity: 'WebsiteEntry';
  postId: string;
  status: WebsiteStatus;
  review: WebsiteReview | null;
  /** When it last went on the website; null unless it is there now. */
  publishedAt: string | null;
  /** Mirrors the post's hidden flag: a hidden post is off the website and out of the queue and counts. */
  hidden: boolean;
  createdAt: string;
  actorId: string;
}

export const isPublic = (e: Pick<WebsiteEntryItem, 'status' | 'hidden'>) => e.status === 'approved' && !e.hidden;

/**
 * A post's website record: in the admin queue of its status (gsi1) unless hidden, on the public list
 * (gsi2, by publishedAt) only while approved and not hidden. Both sparse: a hidden record is in neither.
 */
export const WebsiteEntry = entity<WebsiteEntryItem, [postId: string]>({
  name: 'WebsiteEntry',
  key: websiteEntryKey,
  keyOf: (e) => [e.postId],
  indexes: [
    {
      index: websiteQueueIndex.index,
      pk: (e) => (e.hidden ? undefined : websiteQueueIndex.pk(e.status)),
      sk: (e) => (e.hidden ? undefined : websiteQueueIndex.sk(e.postId)),
    },
    {
      index: officeUpdatesIndex.index,
      pk: (e) => (isPublic(e) && e.publishedAt ? officeUpdatesIndex.pk : undefined),
      sk: (e) => (isPublic(e) && e.publishedAt ? officeUpdatesIndex.sk(e.publishedAt, e.postId) : undefined),
    },
  ],
});

/** How many records not hidden each status has: one item, moved with ADD in the records' transactions. */
export type WebsiteCountsItem = { pk: string; sk: string; entity: 'WebsiteCounts' } & Partial<
  Record<WebsiteStatus, number>
>;
export const WebsiteCounts = entity<WebsiteCountsItem, []>({
  name: 'WebsiteCounts',
  key: websiteCountsKey,
});
