import { type EntityItem, entity, shape } from '../db/entity.ts';

/**
 * Reach (docs/reach.md; issue 48 items 4 and 5): what each person did with each post, once, and the
 * roll-ups those marks move in the same transaction. A post's roll-ups share its `REACH#<postId>`
 * partition (total, days, slices), so a reach answer is one Get and two Queries of O(days + slices).
 */

/** The marks a person leaves on a post, each counted once (the first time). */
export const MARKS = ['seen', 'reacted', 'commented', 'acknowledged'] as const;
export type Mark = (typeof MARKS)[number];

/** The counters every roll-up item keeps. */
export type MarkCounts = { [M in Mark]: number };

/**
 * One person's marks on one post (the seen record, docs/reach.md): each mark's time, set once under
 * `attribute_not_exists(<mark>At)` in the transaction that moves the roll-ups. While `seenAt` is set the
 * item is on the post's seen-by index (gsi1, newest first), the read receipts' list. The person's own
 * data: in their export (`seen`), deleted by their erasure (the roll-ups keep their counts).
 */
export const PostSeen = entity({
  name: 'PostSeen',
  fields: shape<{
    postId: string;
    userId: string;
    seenAt?: string;
    reactedAt?: string;
    commentedAt?: string;
    acknowledgedAt?: string;
  }>(),
  key: { pk: ['REACH_PERSON', 'postId'], sk: ['USER', 'userId'] },
  indexes: {
    seenBy: { index: 'gsi1', pk: ['SEEN_BY', 'postId'], sk: ['seenAt', 'userId'], when: (s) => !!s.seenAt },
  },
  inPlace: true,
});

/**
 * A post's reach in all: `targeted` and `delivered` set once by the background (reach-targets, from the
 * audience at publish), the marks' counters moved with ADD by each first mark. On the rankings indexes
 * by `seen` (numeric sort keys moved with ADD beside it, as the feed's scores are): gsi6 by publishing
 * day, gsi7 by audience and publishing day (targeted posts only).
 */
export const ReachTotal = entity({
  name: 'ReachTotal',
  fields: shape<
    Partial<MarkCounts> & {
      postId: string;
      /** The post's creation (its publishing) and its UTC day: the rankings' partition. */
      publishedAt?: string;
      publishedDay?: string;
      /** The audience the post was targeted to (null: the whole company). */
      audienceId?: string | null;
      targeted?: number;
      delivered?: number;
      /** When the background recorded `targeted` and `delivered` (absent until then). */
      targetedAt?: string;
    }
  >(),
  key: { pk: ['REACH', 'postId'], sk: ['TOTAL'] },
  indexes: {
    rank: { index: 'gsi6', pk: ['REACH_RANK', 'publishedDay'], sk: ['seen'] },
    rankInAudience: {
      index: 'gsi7',
      pk: ['REACH_RANK_AUDIENCE', 'audienceId', 'publishedDay'],
      sk: ['seen'],
      when: (t) => !!t.audienceId,
    },
  },
  inPlace: true,
});
export type ReachTotalItem = EntityItem<typeof ReachTotal>;

/** A post's marks of one UTC day (the reach's course over time), moved with ADD. */
export const ReachDay = entity({
  name: 'ReachDay',
  fields: shape<Partial<MarkCounts> & { postId: string; day: string }>(),
  key: { pk: ['REACH', 'postId'], sk: ['DAY', 'day'] },
  inPlace: true,
});

/** The slicings of a post's reach: the company's values of a person (docs/audiences.md, What selects). */
export const SLICINGS = ['department', 'team', 'location', 'manager'] as const;
export type Slicing = (typeof SLICINGS)[number];

/**
 * A post's reach in one slice (`by` one of SLICINGS, `value` the company's value: a department, team
 * id, location or manager id; '' for people without one). `targeted`/`delivered` set by the background
 * from the values at publish; the marks moved with ADD, counted in the slice the person was in at the
 * moment of the mark.
 */
export const ReachSlice = entity({
  name: 'ReachSlice',
  fields: shape<
    Partial<MarkCounts> & {
      postId: string;
      by: Slicing;
      value: string;
      targeted?: number;
      delivered?: number;
    }
  >(),
  key: { pk: ['REACH', 'postId'], sk: ['SLICE', 'by', 'value'] },
  inPlace: true,
});
export type ReachSliceItem = EntityItem<typeof ReachSlice>;

/**
 * The company's settings of reach (docs/reach.md): the smallest slice shown (at least 3, default 5) and
 * whether authors may see who has seen their posts (off by default). One item; absent: the defaults.
 */
export const ReachSettings = entity({
  name: 'ReachSettings',
  fields: shape<{ suppressionThreshold: number; readReceipts: boolean; updatedAt: string; actorId: string }>(),
  key: { pk: ['SETTINGS'], sk: ['REACH'] },
});

/** A person's choice about read receipts (absent: not opted out). Theirs: exported, erased. */
export const ReadReceiptChoice = entity({
  name: 'ReadReceiptChoice',
  fields: shape<{ userId: string; optedOut: boolean; updatedAt: string }>(),
  key: { pk: ['USER', 'userId'], sk: ['READ_RECEIPTS'] },
});
