import type { TransactItem } from '../db/table.ts';
import { GrievanceStats } from './entities.ts';
import type { Category, DeadlineOutcome, Status } from './vocabulary.ts';

/**
 * The handler statistics counters (docs/data-model.md, Grievances: statistics), one item per UTC day:
 * - `raised`, `category_<c>`, `status_<s>`: grievances raised that day, by category and by their status
 *   now (a move moves the counters of its grievance's raise day);
 * - `ackHours_<bound>`, `resolutionHours_<bound>`: histograms of the time from raising to the
 *   acknowledgement and to the first resolution, of grievances raised that day (see HOUR_BOUNDS);
 * - `ackMet`, `ackMissed`, `feedbackMet`, `feedbackMissed`: deadlines falling due that day, by outcome;
 * - `erased`: grievances the retention sweep erased that day.
 * Counters hold numbers only, never an id or a time of a grievance.
 */
export type StatsDeltas = Map<string, Map<string, number>>;

/**
 * Histogram bins, upper bounds in hours: doubling up to a day, then by day to two weeks, then by weeks
 * and months to a year; a last bin holds anything longer. A median or 90th percentile is answered as the
 * upper bound of the bin holding it, so it is exact to within its bin.
 */
export const HOUR_BOUNDS = [
  1, 2, 4, 8, 12, 24, 48, 72, 96, 120, 144, 168, 240, 336, 504, 720, 1080, 1440, 2160, 2880, 4320, 8760,
] as const;
export const OVER_LAST_BOUND = 'more';

const binOf = (ms: number) => {
  const hours = ms / 3_600_000;
  const bound = HOUR_BOUNDS.find((b) => hours <= b);
  return bound === undefined ? OVER_LAST_BOUND : String(bound);
};

export const statsDay = (iso: string) => iso.slice(0, 10);

export const statsFields = {
  raised: 'raised',
  erased: 'erased',
  category: (c: Category) => `category_${c}`,
  status: (s: Status) => `status_${s}`,
  ackHours: (ms: number) => `ackHours_${binOf(ms)}`,
  resolutionHours: (ms: number) => `resolutionHours_${binOf(ms)}`,
  outcome: (deadline: 'ack' | 'feedback', outcome: DeadlineOutcome) =>
    `${deadline}${outcome === 'met' ? 'Met' : 'Missed'}`,
  /** Adds `delta` to `field` of the day of `iso`. */
  add(deltas: StatsDeltas, iso: string, field: string, delta: number) {
    const day = statsDay(iso);
    const fields = deltas.get(day) ?? new Map<string, number>();
    fields.set(field, (fields.get(field) ?? 0) + delta);
    if (fields.get(field) === 0) fields.delete(field);
    if (fields.size) deltas.set(day, fields);
    else deltas.delete(day);
  },
};

/** The counters a new grievance moves. */
export function raisedStats(createdAt: string, category: Category, status: Status): StatsDeltas {
  const deltas: StatsDeltas = new Map();
  for (const f of [statsFields.raised, statsFields.category(category), statsFields.status(status)])
    statsFields.add(deltas, createdAt, f, 1);
  return deltas;
}

/** One `ADD` per day item, for the caller's transaction. */
export const statsWrites = (deltas: StatsDeltas): TransactItem[] =>
  [...deltas].map(([day, fields]) => GrievanceStats.add({ day }, Object.fromEntries(fields)));
