import { invalid } from '../errors.ts';
import { GrievanceErasureAudit, GrievanceStats, type GrievanceStatsItem } from './entities.ts';
import { HOUR_BOUNDS, OVER_LAST_BOUND, statsFields } from './stats-fields.ts';
import { CATEGORIES, type Category, STATUSES, type Status } from './vocabulary.ts';

/** The longest period one request may ask for, in days (one BatchGet key per day). */
export const MAX_STATS_DAYS = 366;
const DAY_MS = 86_400_000;

/** The UTC days from `from` to `to`, both included (`YYYY-MM-DD`); 400 when the period is not one. */
export function periodDays(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (!Number.isFinite(start) || !Number.isFinite(end)) throw invalid(['from and to must be dates (YYYY-MM-DD)']);
  if (end < start) throw invalid(['to must not be before from']);
  const count = Math.round((end - start) / DAY_MS) + 1;
  if (count > MAX_STATS_DAYS) throw invalid([`the period must not be longer than ${MAX_STATS_DAYS} days`]);
  return Array.from({ length: count }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

/** Months touched by the period (`YYYY-MM`), for the audit items. */
const monthsOf = (days: string[]) => [...new Set(days.map((d) => d.slice(0, 7)))];

/**
 * A quantile of a histogram, answered as the upper bound (hours) of the bin holding it: exact to within
 * that bin. Null when nothing was counted, or when the quantile lies beyond the last bound (a year).
 */
function quantileHours(counts: Map<string, number>, q: number): number | null {
  const bins = [...HOUR_BOUNDS.map(String), OVER_LAST_BOUND];
  const total = bins.reduce((n, b) => n + (counts.get(b) ?? 0), 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (const b of bins) {
    seen += counts.get(b) ?? 0;
    if (seen >= rank) return b === OVER_LAST_BOUND ? null : Number(b);
  }
  return null;
}

function durations(sum: (field: string) => number, prefix: 'ackHours' | 'resolutionHours') {
  const counts = new Map(
    [...HOUR_BOUNDS.map(String), OVER_LAST_BOUND].map((b) => [b, sum(`${prefix}_${b}`)] as [string, number]),
  );
  const count = [...counts.values()].reduce((a, b) => a + b, 0);
  return { count, medianHours: quantileHours(counts, 0.5), p90Hours: quantileHours(counts, 0.9) };
}

/**
 * Handler statistics for the UTC days `from`..`to` (docs/data-model.md, Grievances: statistics): one
 * BatchGet of the period's day items (O(1) per day) and one Query per month of the erasure audit items.
 */
export async function handlerStats(from: string, to: string) {
  const days = periodDays(from, to);
  const found = await GrievanceStats.getMany(days.map((day) => ({ day })));
  const sum = (field: string) =>
    found.reduce((n, item) => n + (Number(item?.[field as keyof GrievanceStatsItem]) || 0), 0);
  const audits = (
    await Promise.all(
      // The partition is the run's month: any time of the month names it.
      monthsOf(days).map((month) =>
        GrievanceErasureAudit.queryAll({ key: { runAt: month }, skBetween: [`${from}T`, `${to}T~`] }),
      ),
    )
  ).flat();
  return {
    from,
    to,
    raised: sum(statsFields.raised),
    byStatus: Object.fromEntries(STATUSES.map((s) => [s, sum(statsFields.status(s))])) as Record<Status, number>,
    byCategory: Object.fromEntries(CATEGORIES.map((c) => [c, sum(statsFields.category(c))])) as Record<
      Category,
      number
    >,
    timeToAcknowledgement: durations(sum, 'ackHours'),
    timeToResolution: durations(sum, 'resolutionHours'),
    deadlines: {
      acknowledgement: {
        met: sum(statsFields.outcome('ack', 'met')),
        missed: sum(statsFields.outcome('ack', 'missed')),
      },
      feedback: {
        met: sum(statsFields.outcome('feedback', 'met')),
        missed: sum(statsFields.outcome('feedback', 'missed')),
      },
    },
    erasures: {
      erased: sum(statsFields.erased),
      runs: audits.map((a) => ({ at: a.runAt, erased: a.erased })),
    },
  };
}
