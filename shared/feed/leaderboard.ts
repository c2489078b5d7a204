import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { EntityItem } from '../db/entity.ts';
import { page } from '../db/paging.ts';
import { type Item, isConditionFailure, retryOnConflict, write } from '../db/table.ts';
import { User } from '../people/entities.ts';
import { getUsers, type UserItem } from '../people/users.ts';
import { FeedScore, FeedScoreDay, type FeedScoreItem, LeaderboardTop } from './entities.ts';
import { scoreOf } from './score-formula.ts';
import { dayOf } from './scores.ts';

/**
 * `GET /people/leaderboard` and `GET /people/contributors`, read from
 * the score items kept by `scores.ts`, never from posts or reactions:
 * - period `all`: gsi6 (everybody by all-time score), read from the top while scores are above zero
 *   until the page and its tie are complete: O(limit) items;
 * - `week` / `month`: the period's top list (kept in the background, below: folded from every score
 *   change, swept from the day partitions in bounded, resumable steps by a schedule) and at most
 *   REQUEST_CHANGES day items changed since the last fold, then the profiles of the top rows only
 *   (rankedTop): O(limit); a request never reads the period's day partitions;
 * - contributors: the featured index, then gsi7 (everybody by posts) from the top.
 * Deactivated people are dropped after batch reads of the people at the top.
 */
export type Period = 'week' | 'month' | 'all';
const PERIOD_DAYS = { week: 7, month: 30 } as const;

export interface LeaderboardEntry {
  rank: number;
  id: string;
  name: string;
  image: string | null;
  title: string;
  postCount: number;
  reactionCount: number;
  commentCount: number;
  shareCount: number;
  score: number;
}

interface Tally {
  userId: string;
  reactions: number;
  comments: number;
  shares: number;
  posts: number;
}

const listed = (u: UserItem | undefined): u is UserItem => !!u && u.status !== 'deactivated';

/** Standard competition ranking (1, 2, 2, 4); ties ordered by name. */
function ranked(tallies: Tally[], users: Map<string, UserItem>, limit: number): LeaderboardEntry[] {
  const rows = tallies
    .map((t) => ({ t, u: users.get(t.userId), score: scoreOf(t) }))
    .filter((r): r is { t: Tally; u: UserItem; score: number } => listed(r.u) && r.score > 0)
    .sort((a, b) => b.score - a.score || a.u.name.localeCompare(b.u.name) || a.u.id.localeCompare(b.u.id));
  return rows.slice(0, limit).map((r) => ({
    rank: 1 + rows.filter((o) => o.score > r.score).length,
    id: r.u.id,
    name: r.u.name,
    image: r.u.image ?? null,
    title: r.u.title ?? '',
    postCount: Math.max(0, r.t.posts),
    reactionCount: r.t.reactions,
    commentCount: r.t.comments,
    shareCount: r.t.shares,
    score: r.score,
  }));
}

const tallyOf = (item: Record<string, any>): Tally => ({
  userId: item.userId,
  reactions: item.reactions ?? 0,
  comments: item.comments ?? 0,
  shares: item.shares ?? 0,
  posts: item.posts ?? 0,
});

/** The last `days` days, today (UTC) included. */
export function periodDays(days: number, now = new Date()): string[] {
  return Array.from({ length: days }, (_, i) => dayOf(new Date(now.getTime() - i * 24 * 3600 * 1000).toISOString()));
}

/**
 * Reads an index of per-person score items from the top (descending numeric sort key) while the key is
 * above zero, until `enough` says the rows read so far settle the answer.
 */
async function readTop(index: 'leaderboard' | 'contributors', enough: (rows: FeedScoreItem[]) => Promise<boolean>) {
  const rows: FeedScoreItem[] = [];
  let cursor: string | undefined;
  for (;;) {
    const found = await FeedScore.query({ index, key: {}, forward: false }, page({ limit: 50, cursor }));
    const positive = found.items.filter((i) => sortKeyOf(i, index) > 0);
    rows.push(...positive);
    const settled = await enough(rows);
    if (settled || positive.length < found.items.length || !found.nextCursor) return rows;
    cursor = found.nextCursor;
  }
}

/** The numeric sort key a score item is stored with on gsi6 (score) or gsi7 (posts). */
function sortKeyOf(row: FeedScoreItem, index: 'leaderboard' | 'contributors'): number {
  const stored: Item = row;
  return stored[index === 'leaderboard' ? 'gsi6sk' : 'gsi7sk'] ?? 0;
}

async function allTimeTallies(limit: number): Promise<{ tallies: Tally[]; users: Map<string, UserItem> }> {
  const users = new Map<string, UserItem>();
  const rows = await readTop('leaderboard', async (read) => {
    const fresh = read.map((r) => r.userId).filter((id) => !users.has(id));
    for (const [id, u] of await getUsers(fresh)) users.set(id, u);
    const kept = read.filter((r) => listed(users.get(r.userId)));
    // Enough when `limit` listed people are read and the last of them is not tied with what follows.
    return kept.length > limit && sortKeyOf(kept[limit], 'leaderboard') < sortKeyOf(kept[limit - 1], 'leaderboard');
  });
  return { tallies: rows.map(tallyOf), users };
}

/**
 * The period's tallies ranked, reading the profiles of the top rows only: from the highest score down,
 * `limit` listed people and everybody tied with the last of them (their names order the tie, and a
 * rank counts the listed people above). A person not listed (deactivated, gone) makes it read on.
 * So the profiles read are O(limit + ties + unlisted among them), not one per scorer of the period.
 */
async function rankedTop(tallies: Tally[], limit: number): Promise<LeaderboardEntry[]> {
  const sorted = tallies.filter((t) => scoreOf(t) > 0).sort((a, b) => scoreOf(b) - scoreOf(a));
  const users = new Map<string, UserItem>();
  let upTo = 0;
  for (;;) {
    const listedSoFar = sorted.slice(0, upTo).filter((t) => listed(users.get(t.userId))).length;
    if (upTo >= sorted.length || listedSoFar >= limit) break;
    let next = Math.min(sorted.length, upTo + (limit - listedSoFar));
    // Never end inside a tie.
    while (next < sorted.length && scoreOf(sorted[next]!) === scoreOf(sorted[next - 1]!)) next++;
    for (const [id, u] of await getUsers(sorted.slice(upTo, next).map((t) => t.userId))) users.set(id, u);
    upTo = next;
  }
  return ranked(sorted.slice(0, upTo), users, limit);
}

export async function leaderboard(period: Period, limit: number, now = new Date()): Promise<LeaderboardEntry[]> {
  if (period === 'all') {
    const { tallies, users } = await allTimeTallies(limit);
    return ranked(tallies, users, limit);
  }
  return fromTopList(period, limit, now);
}

// ------------------------------------------------------------------------------ a period's top list

/** Rows a top list keeps after a sweep (twice the largest `limit`, 50, so people dropping out rarely leave it short)… */
export const TOP_ROWS = 100;
/** …and at most this many with the tie at the cut (an item that never grows with the company). */
export const TOP_MAX_ROWS = 1000;
/** A fold or a sweep step lets the list grow to this many rows (people rising into it) before cutting it to TOP_ROWS. */
const FOLD_MAX_ROWS = 2 * TOP_ROWS;
/** Fewer rows than this above `floor` (people fell or left): the list is marked for a sweep. */
const STALE_BELOW = 75;
/**
 * Changes this long before the last fold (or the list's creation) are read again by a request: the
 * stream's delay to the fold and the clocks of writers and folder (normally well under a second).
 */
const CHANGES_MARGIN_MS = 5_000;
/**
 * At most this many of the newest changes are read by a request (in all): the margin's worth at 1,000
 * changes a minute (85) and more. Exact while the stream's delay to the fold is shorter than the time
 * these changes span (seconds at that rate, against well under one).
 */
export const REQUEST_CHANGES = 100;
/** The schedule sweeps a list again when its last sweep is older than this (a heal: folds are exact). */
const REBUILD_MS = 6 * 3600_000;
/** Items a sweep step reads of each day partition of the window (one Query page each, run together). */
export const SWEEP_PAGE = 100;
/** Sweep steps one run of the schedule takes at most (each one recorded: the next run resumes)… */
const SWEEP_STEPS_PER_RUN = 100;
/** …and the time after which it starts no new one (the function's timeout is 300 s). */
const SWEEP_RUN_MS = 60_000;
/** Sweep steps a fold takes after creating a list itself (a new deployment's first score change). */
const FOLD_CREATE_STEPS = 8;
/** The floor of a list whose first sweep is not done: it bounds nothing, so a request vouches for no row. */
const NO_FLOOR = Number.MAX_SAFE_INTEGER;

type TopItem = EntityItem<typeof LeaderboardTop>;
const windowOf = (period: 'week' | 'month', now: Date) => periodDays(PERIOD_DAYS[period], now);
const DAY_MS = 86_400_000;
const dayAfter = (at: Date) => new Date(at.getTime() + DAY_MS);
type Row = [string, number, number, number, number];
const rowOf = (t: Tally): Row => [t.userId, t.reactions, t.comments, t.shares, t.posts];
const tallyOfRow = ([userId, reactions, comments, shares, posts]: Row): Tally => ({
  userId,
  reactions,
  comments,
  shares,
  posts,
});
const byScore = (a: Tally, b: Tally) => scoreOf(b) - scoreOf(a);
/** DynamoDB's order of sort keys (their UTF-8 bytes), which a sweep's cursor follows. */
const keyOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const ttlOf = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + 3 * 86_400;
/** Every write of a list is on the revision read (a list of before `rev` on its absence). */
const onRev = (top: TopItem) =>
  top.rev === undefined
    ? { ConditionExpression: 'attribute_not_exists(rev)' }
    : { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': top.rev } };
const ABSENT = { ConditionExpression: 'attribute_not_exists(pk)' };

/** Writes a list only where none is: a concurrent creation wins, and there is nothing left to do. */
async function createList(item: Parameters<typeof LeaderboardTop.put>[0]): Promise<void> {
  try {
    await write(LeaderboardTop.put(item, ABSENT), { returnValues: 'NONE' });
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
/** A list that wants a sweep: fewer than STALE_BELOW rows above a floor that leaves people out. */
const staleOf = (sorted: Tally[], floor: number) =>
  floor > 0 && sorted.filter((t) => scoreOf(t) > floor).length < STALE_BELOW;

/** The first `TOP_ROWS` and the tie at the cut (at most TOP_MAX_ROWS), and the highest score left off. */
function cut(sorted: Tally[]): { kept: Tally[]; left: number } {
  let n = Math.min(sorted.length, TOP_ROWS);
  while (n > 0 && n < sorted.length && n < TOP_MAX_ROWS && scoreOf(sorted[n]!) === scoreOf(sorted[n - 1]!)) n++;
  return { kept: sorted.slice(0, n), left: n < sorted.length ? scoreOf(sorted[n]!) : 0 };
}

/** The UTC days from `since` to `now` (the changes index's partitions to read), oldest first. */
function changeDays(since: Date, now: Date): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${dayOf(since.toISOString())}T00:00:00Z`); t <= now.getTime(); t += DAY_MS)
    out.push(dayOf(new Date(t).toISOString()));
  return out;
}

/** Each person's tally over `days`, from their day items (by key). */
async function talliesOf(userIds: string[], days: string[], consistent = false): Promise<Map<string, Tally>> {
  const tallies = new Map<string, Tally>(
    userIds.map((userId) => [userId, { userId, reactions: 0, comments: 0, shares: 0, posts: 0 }]),
  );
  const keys = userIds.flatMap((userId) => days.map((day) => ({ day, userId })));
  for (const item of await FeedScoreDay.getMany(keys, { consistent })) {
    if (!item) continue;
    const t = tallies.get(item.userId)!;
    const d = tallyOf(item);
    t.reactions += d.reactions;
    t.comments += d.comments;
    t.shares += d.shares;
    t.posts += d.posts;
  }
  return tallies;
}

// ------------------------------------------------------------------ sweeps: the day partitions, paged

/**
 * One page (SWEEP_PAGE items) of every day partition of the window after the key `after`, strongly
 * consistent, run together; and the window's tally of every person all the pages cover: up to the
 * smallest last key among the full pages (`upTo`; undefined when every partition was read to its end),
 * since the partitions are ordered by person. Reads: 7 or 30 Query pages, ≤ 700 / 3,000 items.
 */
async function sweepRead(
  days: string[],
  after: string | undefined,
): Promise<{ tallies: Map<string, Tally>; upTo: string | undefined }> {
  const pages = await Promise.all(
    days.map((day) =>
      FeedScoreDay.queryAll(
        { key: { day }, consistent: true, ...(after === undefined ? {} : { skAfter: after }) },
        { max: SWEEP_PAGE },
      ),
    ),
  );
  let upTo: string | undefined;
  for (const items of pages)
    if (items.length >= SWEEP_PAGE) {
      const last = items[items.length - 1]!.sk;
      if (upTo === undefined || keyOrder(last, upTo) < 0) upTo = last;
    }
  const tallies = new Map<string, Tally>();
  for (const item of pages.flat()) {
    if (upTo !== undefined && keyOrder(item.sk, upTo) > 0) continue;
    const d = tallyOf(item);
    const t = tallies.get(d.userId);
    if (!t) tallies.set(d.userId, d);
    else {
      t.reactions += d.reactions;
      t.comments += d.comments;
      t.shares += d.shares;
      t.posts += d.posts;
    }
  }
  return { tallies, upTo };
}

/**
 * Rows, floor and sweep after people were added: cut back to TOP_ROWS when grown past FOLD_MAX_ROWS,
 * and when the sweep is done; both floors raised to the highest score cut off. Done, `floor` is the
 * sweep's (everybody read, and whoever is without a row scores at most it).
 */
function settle(sorted: Tally[], floor: number, sweep: TopItem['sweep'], done: boolean) {
  const { kept, left } = done || sorted.length > FOLD_MAX_ROWS ? cut(sorted) : { kept: sorted, left: 0 };
  const sweepFloor = Math.max(sweep?.floor ?? 0, left);
  if (done) return { rows: kept.map(rowOf), floor: sweepFloor, sweep: undefined, stale: staleOf(kept, sweepFloor) };
  return {
    rows: kept.map(rowOf),
    floor: Math.max(floor, left),
    sweep: sweep && { ...sweep, floor: sweepFloor },
    stale: undefined,
  };
}

/**
 * A list for a window that has none, read from its day partitions: the first step of a sweep (the whole
 * of one in a small company), the rest left to sweepStep. Until the sweep is done its floor is NO_FLOOR
 * (nobody is vouched for). Created only where none is (a concurrent creation wins; nothing to do).
 */
async function createFromDays(period: 'week' | 'month', at: Date): Promise<void> {
  const from = new Date().toISOString();
  const days = windowOf(period, at);
  const { tallies, upTo } = await sweepRead(days, undefined);
  const done = upTo === undefined;
  const sorted = [...tallies.values()].filter((t) => scoreOf(t) > 0).sort(byScore);
  const next = settle(sorted, done ? 0 : NO_FLOOR, done ? undefined : { from, floor: 0, after: upTo }, done);
  await createList({
    period,
    day: days[0]!,
    days,
    builtAt: from,
    foldedAt: from,
    rev: 1,
    ...next,
    stale: next.stale || (done ? undefined : true),
    ttl: ttlOf(days[0]!),
  });
}

/**
 * Tomorrow's list from today's, made ahead (no day item of tomorrow exists yet): today's rows with their
 * tallies over tomorrow's window read again by key, and today's floor, which still bounds everybody
 * else (leaving a day only lowers a score). Exact at once, so midnight finds its list; a sweep is started
 * on it (leaving days makes people fall below the floor). Reads: 1 BatchGet per 100 of rows × days.
 * Created only where none is: a fold of the same moment creates it first, with its change, or finds it.
 */
async function rollAhead(today: TopItem, period: 'week' | 'month', at: Date): Promise<void> {
  const from = new Date().toISOString();
  const days = windowOf(period, at);
  const fresh = await talliesOf(
    today.rows.map((r) => r[0]),
    days,
    true,
  );
  const rows = [...fresh.values()].filter((t) => scoreOf(t) > 0).sort(byScore);
  await createList({
    period,
    day: days[0]!,
    days,
    builtAt: today.builtAt,
    foldedAt: from,
    rev: 1,
    floor: today.floor,
    rows: rows.map(rowOf),
    stale: true,
    sweep: { from, floor: 0 },
    ttl: ttlOf(days[0]!),
  });
}

/**
 * The list of the window ending on `at`'s day, when there is none: rolled from the day before's when
 * `ahead` (tomorrow's) and that one exists, else created from the day partitions and swept on for at
 * most `steps` steps.
 */
async function ensureList(period: 'week' | 'month', at: Date, ahead: boolean, steps: number): Promise<void> {
  const day = dayOf(at.toISOString());
  if (await LeaderboardTop.get({ period, day }, { consistent: true })) return;
  if (ahead) {
    const before = new Date(at.getTime() - DAY_MS);
    const today = await LeaderboardTop.get({ period, day: dayOf(before.toISOString()) }, { consistent: true });
    if (today && today.days.join() === windowOf(period, before).join()) return rollAhead(today, period, at);
  }
  await createFromDays(period, at);
  for (let i = 0; i < steps; i++) if ((await sweepStep(period, day)) !== 'more') return;
}

/** Starts a sweep of a list (none under way): from the first key, its floor 0. */
async function startSweep(period: 'week' | 'month', day: string): Promise<void> {
  await retryOnConflict(
    async () => {
      const top = await LeaderboardTop.get({ period, day }, { consistent: true });
      if (!top || top.sweep) return;
      await write(
        LeaderboardTop.put(
          { ...top, rev: (top.rev ?? 0) + 1, sweep: { from: new Date().toISOString(), floor: 0 } },
          onRev(top),
        ),
        { returnValues: 'NONE' },
      );
    },
    { attempts: 8, fallback: () => undefined },
  );
}

/**
 * One step of a list's sweep: a page of each day partition after `sweep.after` (sweepRead), each person
 * read there set on their row, or joining the rows when above `sweep.floor`, `after` moved on; the last
 * step makes `floor` the sweep's. The list is read before the pages and written on its revision: a fold
 * or another step meanwhile (whose person the pages may hold as before their change) makes it read list
 * and pages again, and a fold after the write sets its people again from their items. Reads: 1 R + 7 /
 * 30 Query pages of ≤ SWEEP_PAGE items; 1 W.
 */
type StepOutcome = 'more' | 'done' | 'none' | 'busy';
async function sweepStep(period: 'week' | 'month', day: string): Promise<StepOutcome> {
  return retryOnConflict<StepOutcome>(
    async () => {
      const top = await LeaderboardTop.get({ period, day }, { consistent: true });
      if (!top?.sweep) return 'none';
      const { after } = top.sweep;
      const { tallies, upTo } = await sweepRead(top.days, after);
      const rows = new Map(top.rows.map((r) => [r[0], tallyOfRow(r)]));
      // The pages cover the people after `after` up to `upTo`: their rows set as read (a heal of any
      // drift; a fold after this write sets them again), a row without any item there dropped.
      const covered = (userId: string) =>
        (after === undefined || keyOrder(userId, after) > 0) && (upTo === undefined || keyOrder(userId, upTo) <= 0);
      for (const userId of rows.keys()) if (covered(userId) && !tallies.has(userId)) rows.delete(userId);
      for (const [userId, t] of tallies)
        if (scoreOf(t) <= 0) rows.delete(userId);
        else if (rows.has(userId) || scoreOf(t) > top.sweep.floor) rows.set(userId, t);
      const done = upTo === undefined;
      const next = settle([...rows.values()].sort(byScore), top.floor, { ...top.sweep, after: upTo }, done);
      await write(
        LeaderboardTop.put(
          {
            ...top,
            ...next,
            stale: done ? next.stale || undefined : top.stale,
            builtAt: done ? top.sweep.from : top.builtAt,
            rev: (top.rev ?? 0) + 1,
          },
          onRev(top),
        ),
        { returnValues: 'NONE' },
      );
      return done ? 'done' : 'more';
    },
    { attempts: 8, fallback: () => 'busy' },
  );
}

const PERIODS = ['week', 'month'] as const;
/** The windows kept: today's, and tomorrow's ahead (so a request at midnight finds its list). */
const keptWindows = (now: Date): [Date, boolean][] => [
  [now, false],
  [dayAfter(now), true],
];

/**
 * The `leaderboard-top` schedule, one bounded run: each period's lists of today's and tomorrow's
 * windows made where missing (tomorrow's rolled from today's), a sweep started on a list marked stale or
 * last swept more than REBUILD_MS ago, then sweep steps, today's lists first, at most `steps` of them
 * and none started after `ms`; each step is recorded, so the next run resumes where this one stopped.
 * Reads per run: 4 list reads, then per step 1 R + 7 / 30 Query pages (≤ 3,000 items): bounded by the
 * constants, whatever the company's size. A sweep reads its window's day items once (about once again
 * per 7 / 30 partitions' overlap), a few times a day per list. Answers the steps taken and the sweeps
 * still under way.
 */
export async function keepTopLists(
  now = new Date(),
  { steps = SWEEP_STEPS_PER_RUN, ms = SWEEP_RUN_MS }: { steps?: number; ms?: number } = {},
): Promise<{ steps: number; sweeping: number }> {
  const started = Date.now();
  const lists: { period: 'week' | 'month'; day: string }[] = [];
  for (const [at, ahead] of keptWindows(now))
    for (const period of PERIODS) {
      const day = dayOf(at.toISOString());
      let top = await LeaderboardTop.get({ period, day }, { consistent: true });
      if (!top) {
        await ensureList(period, at, ahead, 0);
        top = await LeaderboardTop.get({ period, day }, { consistent: true });
      }
      if (top && !top.sweep && (top.stale || Date.parse(top.builtAt) < Date.now() - REBUILD_MS))
        await startSweep(period, day);
      lists.push({ period, day });
    }
  let taken = 0;
  let sweeping = 0;
  for (const { period, day } of lists) {
    let outcome: StepOutcome = 'more';
    while (taken < steps && Date.now() - started < ms) {
      outcome = await sweepStep(period, day);
      if (outcome === 'none') break;
      taken++;
      if (outcome !== 'more') break;
    }
    if (outcome === 'more' || outcome === 'busy') sweeping++;
  }
  return { steps: taken, sweeping };
}

/**
 * A period's list for the window ending on `now`'s day swept to its end at once (a new one if none):
 * every step in one call, unlike the schedule's bounded runs. For tests and the bench, which write the
 * day partitions directly.
 */
export async function buildTopList(period: 'week' | 'month', now = new Date()): Promise<void> {
  const day = dayOf(now.toISOString());
  if (await LeaderboardTop.get({ period, day }, { consistent: true })) await startSweep(period, day);
  else await createFromDays(period, now);
  let outcome = await sweepStep(period, day);
  while (outcome === 'more' || outcome === 'busy') outcome = await sweepStep(period, day);
}

/** Both periods' lists of today's and tomorrow's windows swept to their end at once (the bench). */
export async function buildTopLists(now = new Date()): Promise<void> {
  for (const [at] of keptWindows(now)) for (const period of PERIODS) await buildTopList(period, at);
}

// -------------------------------------------------------------------------------------------- folds

/**
 * Folds changed people into one top list: each one's tally over the list's window read again by key
 * (absolute, so a batch the stream retries folds to the same list), set on their row, or a new row when
 * they now score above what bounds them off the list (`floor`, or `sweep.floor` for people a sweep has
 * read). Grown past FOLD_MAX_ROWS, the list is cut back to TOP_ROWS and both floors raised to the
 * highest score cut off. Written on the revision read; a concurrent fold or sweep step makes it read
 * both again. Reads: 1 R + one BatchGet per 100 day items (7 or 30 per person); 1 W. No list for the
 * window: `absent` (the caller makes one).
 */
async function foldInto(period: 'week' | 'month', day: string, userIds: string[]): Promise<'folded' | 'absent'> {
  return retryOnConflict<'folded' | 'absent'>(
    async () => {
      const top = await LeaderboardTop.get({ period, day }, { consistent: true });
      if (!top) return 'absent';
      const fresh = await talliesOf([...new Set(userIds)], top.days, true);
      const rows = new Map(top.rows.map((r) => [r[0], tallyOfRow(r)]));
      const { sweep } = top;
      const bound = (userId: string) =>
        sweep?.after !== undefined && keyOrder(userId, sweep.after) <= 0 ? sweep.floor : top.floor;
      for (const [userId, t] of fresh) {
        if (rows.has(userId) || scoreOf(t) > bound(userId)) rows.set(userId, t);
        if (scoreOf(t) <= 0) rows.delete(userId);
      }
      const next = settle([...rows.values()].sort(byScore), top.floor, sweep, false);
      await write(
        LeaderboardTop.put(
          {
            ...top,
            ...next,
            rev: (top.rev ?? 0) + 1,
            foldedAt: new Date().toISOString(),
            stale: sweep ? top.stale : staleOf(next.rows.map(tallyOfRow), next.floor) || undefined,
          },
          onRev(top),
        ),
        { returnValues: 'NONE' },
      );
      return 'folded';
    },
    { attempts: 8 },
  );
}

/**
 * The leaderboard's stream consumer (functions/stream/leaderboard-fold.ts): every score change (a day
 * item written) folded into the top lists of today's and tomorrow's windows that hold its day; a list
 * missing is made first (tomorrow's rolled from today's; one with nothing to roll from created from the
 * day partitions, swept for at most FOLD_CREATE_STEPS steps: a new deployment's first change). Per
 * batch: per list 1 R + 1 W, and per changed person their days of the window (one BatchGet per 100).
 */
export const leaderboardFoldFilters: Record<string, unknown>[] = [
  { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { entity: { S: [FeedScoreDay.name] } } } },
];

export async function foldScoreChanges(records: DynamoDBRecord[], now = new Date()): Promise<void> {
  const changes: { userId: string; day: string }[] = [];
  for (const r of records) {
    const image = r.dynamodb?.NewImage as Record<string, AttributeValue> | undefined;
    if (!image) continue;
    const item = unmarshall(image);
    if (item.entity === FeedScoreDay.name) changes.push({ userId: String(item.userId), day: String(item.day) });
  }
  if (!changes.length) return;
  // Today's lists first: tomorrow's, when missing, is rolled from today's with this batch in it.
  for (const [at, ahead] of keptWindows(now))
    for (const period of PERIODS) {
      const window = new Set(windowOf(period, at));
      const people = changes.filter((c) => window.has(c.day)).map((c) => c.userId);
      if (!people.length) continue;
      const day = dayOf(at.toISOString());
      if ((await foldInto(period, day, people)) === 'absent') {
        await ensureList(period, at, ahead, FOLD_CREATE_STEPS);
        await foldInto(period, day, people);
      }
    }
}

// ---------------------------------------------------------------------------------------- requests

/**
 * The period's answer from its top list: the list's tallies (folded from every score change), with the
 * people whose day item in the window changed since the last fold (less CHANGES_MARGIN_MS: what the
 * stream may not have brought yet) read again by key, the newest REQUEST_CHANGES changes in all (the
 * changes index, newest UTC day first, at most 3 days) — only those whose score before plus all their
 * changed days could reach the page, so a busy minute far below it reads none of their days. A person not on the list scores at most
 * `floor`, so every answered row above it is exact, its rank and tie included; the answer is the page
 * of those (all of it when `floor` is 0). A list with fewer than `limit` listed rows above its floor
 * (many fell: the fold marks it stale and the schedule sweeps it within minutes), or none for today's
 * window (a new deployment before its first score change or schedule run), answers the rows it can
 * vouch for — never a row out of place — and never reads the day partitions. Reads: 1 R + ≤ 3 Query
 * pages (≤ REQUEST_CHANGES items in all) + the days by key of the changed people who may reach the page
 * (≤ REQUEST_CHANGES × 7 / 30 items; normally those on the page who changed) + the profiles of the top
 * rows (rankedTop): O(limit), whatever the company's size or activity.
 */
async function fromTopList(period: 'week' | 'month', limit: number, now: Date): Promise<LeaderboardEntry[]> {
  const days = windowOf(period, now);
  const top = await LeaderboardTop.get({ period, day: days[0]! });
  if (!top || top.days.join() !== days.join()) return [];
  const since = new Date(Date.parse(top.foldedAt ?? top.builtAt) - CHANGES_MARGIN_MS);
  // Changes are dated by the clock (the window by `now`, which a test may move); newest day first.
  const partitions = changeDays(since, new Date()).slice(-3).reverse();
  const inWindow = new Set(days);
  // What the changes since can have added to each changed person's window: the score of each changed
  // day, whole (what a day gained since the fold is at most its score now, as it started at zero or
  // more; a day that lost gained nothing).
  const gain = new Map<string, number>();
  let read = 0;
  for (const changedDay of partitions) {
    if (read >= REQUEST_CHANGES) break;
    const { items } = await FeedScoreDay.query(
      { index: 'changes', key: { changedDay }, skAfter: since.toISOString(), forward: false },
      page({ limit: REQUEST_CHANGES - read }),
    );
    read += items.length;
    for (const item of items)
      if (inWindow.has(item.day)) gain.set(item.userId, (gain.get(item.userId) ?? 0) + Math.max(0, scoreOf(item)));
  }
  const tallies = new Map<string, Tally>(top.rows.map((r) => [r[0], tallyOfRow(r)]));
  // Only the changed people who may reach the page are read again: a person whose score before the
  // changes (their row, or at most `floor` off the list) plus all they can have gained stays below
  // the page's last score can neither enter it nor move anybody on it. At 1,000 changes a minute most
  // changes are of people far below the page, so what a request reads stays flat in the activity.
  const exact = new Set<string>();
  for (;;) {
    const answer = (await rankedTop([...tallies.values()], limit)).filter((e) => e.score > top.floor);
    const last = answer.length < limit ? Number.NEGATIVE_INFINITY : answer[answer.length - 1]!.score;
    const before = (userId: string) => {
      const row = tallies.get(userId);
      return row ? scoreOf(row) : top.floor;
    };
    const reread = [...gain]
      .filter(([userId, more]) => !exact.has(userId) && before(userId) + more >= last)
      .map(([userId]) => userId);
    if (!reread.length) return answer;
    for (const [userId, t] of await talliesOf(reread, days)) tallies.set(userId, t);
    for (const userId of reread) exact.add(userId);
  }
}

export interface Contributor {
  id: string;
  name: string;
  image: string | null;
  title: string;
  note: string;
  isFeatured: boolean;
  postCount: number;
}

const contributorOf = (u: UserItem, featured: boolean): Contributor => ({
  id: u.id,
  name: u.name,
  image: u.image ?? null,
  title: u.title ?? '',
  note: featured ? (u.featuredNote ?? '') : '',
  isFeatured: featured,
  postCount: Math.max(0, u.postCount ?? 0),
});

/** Featured people in the order they were featured, then the most posts (at least one), no one twice. */
export async function contributors(limit: number): Promise<Contributor[]> {
  const pinned = await User.queryAll({ index: 'featured', key: {} });
  const out: Contributor[] = pinned
    .filter((u) => listed(u) && u.isFeatured)
    .slice(0, limit)
    .map((u) => contributorOf(u, true));
  if (out.length >= limit) return out;
  const seen = new Set(out.map((c) => c.id));
  const users = new Map<string, UserItem>();
  await readTop('contributors', async (read) => {
    const fresh = read.map((r) => r.userId).filter((id) => !users.has(id));
    for (const [id, u] of await getUsers(fresh)) users.set(id, u);
    return read.filter((r) => !seen.has(r.userId) && listed(users.get(r.userId))).length >= limit - out.length;
  }).then((rows) => {
    for (const r of rows) {
      const u = users.get(r.userId);
      if (out.length >= limit || seen.has(r.userId) || !listed(u)) continue;
      seen.add(u.id);
      out.push(contributorOf(u, false));
    }
  });
  return out;
}
