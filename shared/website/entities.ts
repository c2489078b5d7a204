import { type EntityItem, entity, shape } from '../db/entity.ts';
import { isPublic, type WebsiteStatus } from './status.ts';

/**
 * The website records of posts (docs/data-model.md, Office updates): each item's key and indexes, declared
 * once. Below the feed, which writes a post's record with the post; office-updates reviews and lists them.
 */

export interface WebsiteReview {
  reviewedAt: string;
  reviewer: string | null;
  reason: string | null;
}

/**
 * A post's website record, in the post's partition: in the admin queue of its status (gsi1, newest
 * post first) unless hidden, on the public list (gsi2, by publishedAt) only while approved and not
 * hidden. Both sparse: a hidden record is in neither.
 */
export const WebsiteEntry = entity({
  name: 'WebsiteEntry',
  fields: shape<{
    postId: string;
    status: WebsiteStatus;
    review: WebsiteReview | null;
    /** When it last went on the website; null unless it is there now. */
    publishedAt: string | null;
    /** Mirrors the post's hidden flag: a hidden post is off the website and out of the queue and counts. */
    hidden: boolean;
    createdAt: string;
    actorId: string;
  }>(),
  key: { pk: ['POST', 'postId'], sk: ['WEBSITE'] },
  indexes: {
    queue: { index: 'gsi1', pk: ['WEBSITE', 'status'], sk: ['postId'], when: (e) => !e.hidden },
    published: {
      index: 'gsi2',
      pk: ['OFFICE_UPDATES'],
      sk: ['publishedAt', 'postId'],
      when: (e) => isPublic(e) && !!e.publishedAt,
    },
  },
});
export type WebsiteEntryItem = EntityItem<typeof WebsiteEntry>;

/** How many records not hidden each status has: one item, moved with ADD in the records' transactions. */
export const WebsiteCounts = entity({
  name: 'WebsiteCounts',
  fields: shape<Partial<Record<WebsiteStatus, number>>>(),
  key: { pk: ['WEBSITE'], sk: ['COUNTS'] },
  inPlace: true,
});
