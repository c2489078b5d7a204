import type { UpdateParts } from '../db/entity.ts';
import type { TransactItem } from '../db/table.ts';
import { FeedScore, FeedScoreDay } from './entities.ts';
import { type ScoreTotals, scoreOf } from './score-formula.ts';

/**
 * Leaderboard bookkeeping: the score (score-formula.ts) counts on the day of the reaction, comment or
 * share. Every change that moves a score moves, in its own transaction, the person's all-time item
 * (ordered in gsi6 by score and gsi7 by posts) and their item of that day.
 */

export interface ScoreDelta {
  userId: string;
  /** When the counted thing happened (ISO 8601); picks the day item. */
  at: string;
  reactions?: number;
  comments?: number;
  shares?: number;
  posts?: number;
}

const FIELDS = ['reactions', 'comments', 'shares', 'posts'] as const;

/** The UTC day (YYYY-MM-DD) of an instant: the leaderboard's bucket. */
export const dayOf = (iso: string) => new Date(iso).toISOString().slice(0, 10);

function add(
  map: Map<string, { userId: string; day?: string; t: ScoreTotals }>,
  key: string,
  userId: string,
  day: string | undefined,
  d: ScoreDelta,
) {
  const entry = map.get(key) ?? { userId, day, t: { reactions: 0, comments: 0, shares: 0, posts: 0 } };
  for (const f of FIELDS) entry.t[f] += d[f] ?? 0;
  map.set(key, entry);
}

/**
 * The writes for these deltas, merged per item (a transaction may touch an item once). Each write
 * `ADD`s, so concurrent changes never lose an update; the score is an `ADD` of its weighted delta.
 */
export function scoreWrites(deltas: ScoreDelta[], actorId: string): TransactItem[] {
  const totals = new Map<string, { userId: string; day?: string; t: ScoreTotals }>();
  const days = new Map<string, { userId: string; day?: string; t: ScoreTotals }>();
  for (const d of deltas) {
    add(totals, d.userId, d.userId, undefined, d);
    const day = dayOf(d.at);
    add(days, `${day}|${d.userId}`, d.userId, day, d);
  }
  const writes: TransactItem[] = [];
  for (const { userId, t } of totals.values()) {
    if (isZero(t)) continue;
    // Index partition keys are SET, numeric sort keys moved by the delta's value (FeedScore's declaration).
    const indexed = Object.entries(FeedScore.indexAttributes({ userId, ...t }));
    writes.push(
      FeedScore.update(
        { userId },
        scoreUpdate(
          {
            entity: FeedScore.name,
            userId,
            actorId,
            ...Object.fromEntries(indexed.filter(([, v]) => typeof v !== 'number')),
          },
          { ...t, ...Object.fromEntries(indexed.filter(([, v]) => typeof v === 'number')) },
        ),
      ),
    );
  }
  for (const { userId, day, t } of days.values()) {
    if (isZero(t)) continue;
    writes.push(
      FeedScoreDay.update(
        { day: day!, userId },
        scoreUpdate({ entity: FeedScoreDay.name, userId, actorId, day: day! }, { ...t, score: scoreOf(t) }),
      ),
    );
  }
  return writes;
}

const isZero = (t: ScoreTotals) => FIELDS.every((f) => t[f] === 0);

/** SET these attributes, ADD those deltas (no read, so concurrent changes never lose an update). */
function scoreUpdate(set: Record<string, unknown>, adds: Record<string, unknown>): UpdateParts {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const part = (entries: Record<string, unknown>, prefix: string, op: string) =>
    Object.entries(entries).map(([name, value], i) => {
      names[`#${prefix}${i}`] = name;
      values[`:${prefix}${i}`] = value;
      return `#${prefix}${i}${op}:${prefix}${i}`;
    });
  return {
    UpdateExpression: `SET ${part(set, 's', ' = ').join(', ')} ADD ${part(adds, 'a', ' ').join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
