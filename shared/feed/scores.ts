import type { UpdateParts } from '../db/entity.ts';
import { failedConditions, isConditionFailure, type TransactItem, transact } from '../db/table.ts';
import { User } from '../people/entities.ts';
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
  const owners = new Set<string>();
  const tagged = (userId: string, w: TransactItem) => {
    scoreOwner.set(w, userId);
    owners.add(userId);
    writes.push(w);
  };
  for (const { userId, t } of totals.values()) {
    if (isZero(t)) continue;
    // Index partition keys are SET, numeric sort keys moved by the delta's value (FeedScore's declaration).
    const indexed = Object.entries(FeedScore.indexAttributes({ userId, ...t }));
    tagged(
      userId,
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
  // When it changed: the day item's place on the changes index (leaderboard.ts reads what moved since a top list).
  const changedAt = new Date().toISOString();
  const changedDay = changedAt.slice(0, 10);
  for (const { userId, day, t } of days.values()) {
    if (isZero(t)) continue;
    const indexed = FeedScoreDay.indexAttributes({ userId, day: day!, changedAt, changedDay } as never);
    tagged(
      userId,
      FeedScoreDay.update(
        { day: day!, userId },
        scoreUpdate(
          { entity: FeedScoreDay.name, userId, actorId, day: day!, changedAt, changedDay, ...indexed },
          { ...t, score: scoreOf(t) },
        ),
      ),
    );
  }
  // Each person's erasure has not started (transactScored drops their score when it has).
  for (const userId of owners) {
    const check = User.check({ id: userId }, { ConditionExpression: 'attribute_not_exists(erasureId)' });
    closedCheck.set(check, userId);
    writes.push(check);
  }
  return writes;
}

/** Which person a score write moves, and which check guards a person's scores (tags on the write objects). */
const scoreOwner = new WeakMap<TransactItem, string>();
const closedCheck = new WeakMap<TransactItem, string>();
const keyOf = (w: TransactItem) => {
  const body = Object.values(w)[0] as { Key?: { pk?: string; sk?: string } };
  return `${body.Key?.pk}|${body.Key?.sk}`;
};

/**
 * Writes a transaction holding `scoreWrites`: a person whose erasure started (their profile's
 * `erasureId`, issue 33) fails their check, and the transaction is written again without their score
 * (the change itself, a reaction or a comment on what they wrote, still lands; their score does not
 * move). A check on a profile the transaction writes anyway (the author's post count) is left out:
 * one transaction touches an item once.
 */
export async function transactScored(items: TransactItem[]): Promise<void> {
  const written = new Set(items.filter((w) => !closedCheck.has(w)).map(keyOf));
  let list = items.filter((w) => !closedCheck.has(w) || !written.has(keyOf(w)));
  for (;;) {
    try {
      await transact(list);
      return;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const failed = failedConditions(err).map((i) => list[i]);
      const closed = new Set(failed.map((w) => closedCheck.get(w)));
      if (!failed.length || closed.has(undefined)) throw err;
      list = list.filter((w) => !closed.has(closedCheck.get(w) ?? scoreOwner.get(w)));
    }
  }
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
