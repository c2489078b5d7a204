import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { page } from '../db/paging.ts';
import { type Item, isConditionFailure, write } from '../db/table.ts';
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
 * - `week` / `month`: the period's top list (built in the background, below) and the day items changed
 *   since it was built, then the profiles of the top rows only (rankedTop); without a list for
 *   today's window (the first minute of a UTC day, a new deployment) the 7 / 30 day partitions,
 *   O(people active in the period) score items in 7 / 30 Queries run together;
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

async function periodTallies(days: string[]): Promise<Tally[]> {
  const perDay = await Promise.all(days.map((day) => FeedScoreDay.queryAll({ key: { day } })));
  const sum = new Map<string, Tally>();
  for (const item of perDay.flat()) {
    const t = tallyOf(item);
    const s = sum.get(t.userId) ?? { userId: t.userId, reactions: 0, comments: 0, shares: 0, posts: 0 };
    s.reactions += t.reactions;
    s.comments += t.comments;
    s.shares += t.shares;
    s.posts += t.posts;
    sum.set(t.userId, s);
  }
  return [...sum.values()];
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
  return (
    (await fromTopList(period, limit, now)) ??
    rankedTop(await periodTallies(periodDays(PERIOD_DAYS[period], now)), limit)
  );
}

// ------------------------------------------------------------------------------ a period's top list

/** Rows a top list keeps (twice the largest `limit`, 50, so people dropping out rarely leave it short)… */
export const TOP_ROWS = 100;
/** …and at most this many with the tie at the cut (an item that never grows with the company). */
export const TOP_MAX_ROWS = 1000;
/** A fold lets the list grow to this many rows (people rising into it) before cutting it to TOP_ROWS. */
const FOLD_MAX_ROWS = 2 * TOP_ROWS;
/** Fewer rows than this above `floor` (people fell or left): the list is marked for a rebuild. */
const STALE_BELOW = 75;
/**
 * Changes this long before the last fold (or build) are read again by a request: the stream's delay to
 * the fold and the clocks of writers and folder (normally well under a second).
 */
const CHANGES_MARGIN_MS = 5_000;
/**
 * At most this many of the newest changes are read by a request (per UTC day since the fold: 1 or 2):
 * the margin's worth at 1,000 changes a minute (85) and more. Exact while the stream's delay to the
 * fold is shorter than the time these changes span (seconds at that rate, against well under one).
 */
export const REQUEST_CHANGES = 100;
/** The schedule rebuilds a list from the day partitions when it is older than this (a heal: folds are exact). */
const REBUILD_MS = 6 * 3600_000;

const windowOf = (period: 'week' | 'month', now: Date) => periodDays(PERIOD_DAYS[period], now);
const DAY_MS = 86_400_000;
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

/** The first `TOP_ROWS` and the tie at the cut (at most TOP_MAX_ROWS), and the highest score left off. */
function cut(sorted: Tally[]): { kept: Tally[]; left: number } {
  let n = Math.min(sorted.length, TOP_ROWS);
  while (n > 0 && n < sorted.length && n < TOP_MAX_ROWS && scoreOf(sorted[n]!) === scoreOf(sorted[n - 1]!)) n++;
  return { kept: sorted.slice(0, n), left: n < sorted.length ? scoreOf(sorted[n]!) : 0 };
}

/**
 * Builds a period's top list from its day partitions (background, the `leaderboard-top` schedule, which
 * runs it only for a window without a list, a list marked stale, or one older than REBUILD_MS: a few
 * times a day; the reads grow with the people active in the period, here only). `builtAt` is taken
 * before the reads; a fold written meanwhile is overwritten, so the changes since `builtAt` are folded
 * again after the write (the changes index, a build's duration of them).
 */
export async function buildTopList(period: 'week' | 'month', now = new Date()): Promise<void> {
  const builtAt = new Date().toISOString();
  const days = windowOf(period, now);
  const before = await LeaderboardTop.get({ period, day: days[0]! }, { consistent: true });
  const { kept, left } = cut((await periodTallies(days)).filter((t) => scoreOf(t) > 0).sort(byScore));
  await write(
    LeaderboardTop.put({
      period,
      day: days[0]!,
      days,
      builtAt,
      foldedAt: builtAt,
      rev: (before?.rev ?? 0) + 1,
      floor: left,
      rows: kept.map(rowOf),
      ttl: Math.floor(Date.parse(`${days[0]}T00:00:00Z`) / 1000) + 3 * 86_400,
    }),
    { returnValues: 'NONE' },
  );
  const since = new Date(Date.parse(builtAt) - CHANGES_MARGIN_MS);
  const changed: { userId: string; day: string }[] = [];
  for (const changedDay of changeDays(since, new Date()))
    changed.push(
      ...(await FeedScoreDay.queryAll({ index: 'changes', key: { changedDay }, skAfter: since.toISOString() })),
    );
  if (changed.length)
    await foldInto(
      period,
      days[0]!,
      changed.map((c) => c.userId),
    );
}

/**
 * Both periods' top lists for today's window and tomorrow's (the schedule), each built only when it is
 * missing, marked stale by a fold, or older than REBUILD_MS. Tomorrow's is built ahead, and folded
 * into from then on, so a request at midnight finds its window's list: the day leaving the window is
 * the one change folds cannot make (a score falls), and a build makes it.
 */
export async function buildTopLists(now = new Date()): Promise<void> {
  for (const period of ['week', 'month'] as const)
    for (const at of [now, new Date(now.getTime() + DAY_MS)]) {
      const top = await LeaderboardTop.get({ period, day: dayOf(at.toISOString()) });
      if (!top || top.stale || Date.parse(top.builtAt) < now.getTime() - REBUILD_MS) await buildTopList(period, at);
    }
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

/**
 * Folds changed people into one top list: each one's tally over the list's window read again by key
 * (absolute, so a batch the stream retries folds to the same list), set on their row, or a new row when
 * they now score above `floor` (anybody off the list still scores at most `floor`). Grown past
 * FOLD_MAX_ROWS, the list is cut back to TOP_ROWS and `floor` raised to the highest score cut off.
 * Written on the revision read; a concurrent fold or build makes it read both again. Reads: 1 R +
 * one BatchGet per 100 day items (7 or 30 per person); 1 W. No list for the window: nothing (a build
 * reads the changes).
 */
async function foldInto(period: 'week' | 'month', day: string, userIds: string[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const top = await LeaderboardTop.get({ period, day }, { consistent: true });
    if (!top) return;
    const fresh = await talliesOf([...new Set(userIds)], top.days, true);
    const rows = new Map(top.rows.map((r) => [r[0], tallyOfRow(r)]));
    for (const [userId, t] of fresh) {
      if (rows.has(userId) || scoreOf(t) > top.floor) rows.set(userId, t);
      if (scoreOf(t) <= 0) rows.delete(userId);
    }
    let sorted = [...rows.values()].sort(byScore);
    let floor = top.floor;
    if (sorted.length > FOLD_MAX_ROWS) {
      const { kept, left } = cut(sorted);
      sorted = kept;
      floor = Math.max(floor, left);
    }
    const rev = top.rev ?? 0;
    try {
      await write(
        LeaderboardTop.put(
          {
            ...top,
            rows: sorted.map(rowOf),
            floor,
            rev: rev + 1,
            foldedAt: new Date().toISOString(),
            stale: sorted.filter((t) => scoreOf(t) > floor).length < STALE_BELOW || undefined,
          },
          // The revision, and the build it came from (a build starts its own count).
          {
            ConditionExpression: `${top.rev === undefined ? 'attribute_not_exists(rev)' : 'rev = :rev'} AND builtAt = :b`,
            ExpressionAttributeValues: { ...(top.rev === undefined ? {} : { ':rev': rev }), ':b': top.builtAt },
          },
        ),
        { returnValues: 'NONE' },
      );
      return;
    } catch (err) {
      if (!isConditionFailure(err) || attempt >= 5) throw err;
    }
  }
}

/**
 * The leaderboard's stream consumer (functions/stream/leaderboard-fold.ts): every score change (a day
 * item written) folded into the top lists of today's and tomorrow's windows that hold its day. Per
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
  for (const period of ['week', 'month'] as const)
    for (const at of [now, new Date(now.getTime() + DAY_MS)]) {
      const window = new Set(windowOf(period, at));
      const people = changes.filter((c) => window.has(c.day)).map((c) => c.userId);
      if (people.length) await foldInto(period, dayOf(at.toISOString()), people);
    }
}

/**
 * The period's answer from its top list, exact: the list's tallies (folded from every score change),
 * with the people whose day item in the window changed since the last fold (less CHANGES_MARGIN_MS:
 * what the stream may not have brought yet) read again by key, the newest REQUEST_CHANGES of them per
 * UTC day. A person not on the list scores at most `floor`, so the answer is exact when `limit` listed
 * people score above it (else, or with no list for today's window yet: undefined, and the period is
 * read from its days; a fold marks such a list stale and the schedule rebuilds it). Reads: 1 R + 1 Query
 * page per UTC day since the fold (1; 2 just after midnight) + the changed people's days by key (at most
 * REQUEST_CHANGES × 7 / 30 items) + the profiles of the top rows (rankedTop): O(limit), whatever the
 * company's size or activity.
 */
async function fromTopList(
  period: 'week' | 'month',
  limit: number,
  now: Date,
): Promise<LeaderboardEntry[] | undefined> {
  const days = windowOf(period, now);
  const top = await LeaderboardTop.get({ period, day: days[0]! });
  if (!top || top.days.join() !== days.join()) return undefined;
  const since = new Date(Date.parse(top.foldedAt ?? top.builtAt) - CHANGES_MARGIN_MS);
  // Changes are dated by the clock (the window by `now`, which a test may move).
  const partitions = changeDays(since, new Date());
  if (partitions.length > 3) return undefined;
  const inWindow = new Set(days);
  const changed = new Set<string>();
  for (const changedDay of partitions) {
    const { items } = await FeedScoreDay.query(
      { index: 'changes', key: { changedDay }, skAfter: since.toISOString(), forward: false },
      page({ limit: REQUEST_CHANGES }),
    );
    for (const item of items) if (inWindow.has(item.day)) changed.add(item.userId);
  }
  const tallies = new Map<string, Tally>(top.rows.map((r) => [r[0], tallyOfRow(r)]));
  if (changed.size) for (const [userId, t] of await talliesOf([...changed], days)) tallies.set(userId, t);
  const answer = await rankedTop([...tallies.values()], limit);
  // Exact when nobody left off the list could be among them: every answered score above the floor,
  // and a short answer only when nobody was left off.
  if (top.floor > 0 && (answer.length < limit || answer.some((e) => e.score <= top.floor))) return undefined;
  return answer;
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
