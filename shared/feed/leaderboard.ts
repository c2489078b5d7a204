import { page } from '../db/paging.ts';
import type { Item } from '../db/table.ts';
import { User } from '../people/entities.ts';
import { getUsers, type UserItem } from '../people/users.ts';
import { FeedScore, FeedScoreDay, type FeedScoreItem } from './entities.ts';
import { scoreOf } from './score-formula.ts';
import { dayOf } from './scores.ts';

/**
 * `GET /people/leaderboard` and `GET /people/contributors`, read from
 * the score items kept by `scores.ts`, never from posts or reactions:
 * - period `all`: gsi6 (everybody by all-time score), read from the top while scores are above zero
 *   until the page and its tie are complete: O(limit) items;
 * - `week` / `month`: the 7 / 30 day partitions, O(people active in the period) score items (small)
 *   in 7 / 30 Queries run together, then the profiles of the top rows only (rankedTop);
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
  return rankedTop(await periodTallies(periodDays(PERIOD_DAYS[period], now)), limit);
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
