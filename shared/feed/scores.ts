import { updateEntry } from '../db/entity.ts';
import { contributorsIndex, feedScoreDayKey, feedScoreKey, leaderboardIndex } from '../db/keys.ts';
import type { TransactItem } from '../db/table.ts';

/**
 * Leaderboard bookkeeping: score = reactions received (dislikes excluded) ×1 + comments
 * and replies received from others ×2 + shares by others ×3, counted on the day of the reaction,
 * comment or share. Every change that moves a score moves, in its own transaction, the person's
 * all-time item (ordered in gsi6 by score and gsi7 by posts) and their item of that day.
 */
export const WEIGHTS = { reactions: 1, comments: 2, shares: 3 } as const;

export interface ScoreDelta {
  userId: string;
  /** When the counted thing happened (ISO 8601); picks the day item. */
  at: string;
  reactions?: number;
  comments?: number;
  shares?: number;
  posts?: number;
}

type Totals = { reactions: number; comments: number; shares: number; posts: number };
const FIELDS = ['reactions', 'comments', 'shares', 'posts'] as const;

/** The UTC day (YYYY-MM-DD) of an instant: the leaderboard's bucket. */
export const dayOf = (iso: string) => new Date(iso).toISOString().slice(0, 10);
export const scoreOf = (t: Pick<Totals, 'reactions' | 'comments' | 'shares'>) =>
  t.reactions * WEIGHTS.reactions + t.comments * WEIGHTS.comments + t.shares * WEIGHTS.shares;

function add(
  map: Map<string, { userId: string; day?: string; t: Totals }>,
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
  const totals = new Map<string, { userId: string; day?: string; t: Totals }>();
  const days = new Map<string, { userId: string; day?: string; t: Totals }>();
  for (const d of deltas) {
    add(totals, d.userId, d.userId, undefined, d);
    const day = dayOf(d.at);
    add(days, `${day}|${d.userId}`, d.userId, day, d);
  }
  const writes: TransactItem[] = [];
  const update = (
    key: { pk: string; sk: string },
    userId: string,
    t: Totals,
    extra: Record<string, unknown>,
    sortKeys: Record<string, number>,
  ) => {
    if (FIELDS.every((f) => t[f] === 0)) return;
    const names: Record<string, string> = { '#e': 'entity' };
    const values: Record<string, unknown> = { ':u': userId, ':a': actorId };
    const sets = ['#e = :e', 'userId = :u', 'actorId = :a'];
    const adds: string[] = [];
    for (const [k, v] of Object.entries(extra)) {
      names[`#${k}`] = k;
      values[`:${k}`] = v;
      sets.push(`#${k} = :${k}`);
    }
    for (const f of FIELDS) {
      names[`#${f}`] = f;
      values[`:${f}`] = t[f];
      adds.push(`#${f} :${f}`);
    }
    for (const [attr, delta] of Object.entries(sortKeys)) {
      names[`#${attr}`] = attr;
      values[`:${attr}`] = delta;
      adds.push(`#${attr} :${attr}`);
    }
    values[':e'] = extra.day ? 'FeedScoreDay' : 'FeedScore';
    writes.push(
      updateEntry(key, {
        UpdateExpression: `SET ${sets.join(', ')} ADD ${adds.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  };
  for (const { userId, t } of totals.values()) {
    update(
      feedScoreKey(userId),
      userId,
      t,
      { [`${leaderboardIndex.index}pk`]: leaderboardIndex.pk, [`${contributorsIndex.index}pk`]: contributorsIndex.pk },
      { [`${leaderboardIndex.index}sk`]: scoreOf(t), [`${contributorsIndex.index}sk`]: t.posts },
    );
  }
  for (const { userId, day, t } of days.values()) {
    update(feedScoreDayKey(day!, userId), userId, t, { day: day! }, { score: scoreOf(t) });
  }
  return writes;
}
