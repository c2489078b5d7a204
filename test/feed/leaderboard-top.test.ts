import { afterEach, describe, expect, it, vi } from 'vitest';
import { putMany, transact, write } from '../../shared/db/table.ts';
import { FeedScoreDay, LeaderboardTop } from '../../shared/feed/entities.ts';
import { buildTopList, leaderboard, periodDays, TOP_ROWS } from '../../shared/feed/leaderboard.ts';
import { scoreWrites } from '../../shared/feed/scores.ts';
import { User } from '../../shared/people/entities.ts';
import { blankProfile } from '../../shared/people/users.ts';
import { api, newMember, uniq } from '../support/api.ts';
import { createPost } from './helpers.ts';

/**
 * The week's and month's top lists (shared/feed/leaderboard.ts): a request reads the period's list and
 * the day items changed since it was built, never the period's day partitions, and answers exactly
 * what reading every partition answers; a change is in the answer at once and in the list after the
 * next sweep (here `buildTopList`, the `leaderboard-top` schedule's sweep run to its end at once).
 */
afterEach(() => vi.restoreAllMocks());

/** Day partitions of the period read (the full read), counted on FeedScoreDay's base-table queries. */
function partitionReads() {
  const spy = vi.spyOn(FeedScoreDay, 'queryAll');
  spy.mockClear();
  return () => spy.mock.calls.filter(([where]) => !where.index).length;
}

interface Scorer {
  id: string;
  name: string;
  reactions: number;
  comments: number;
}
/** Stores the scorers as active members straight in the table: each test's many people, without the API's cost. */
const putScorers = (people: Scorer[]) =>
  putMany(
    people.map((p) =>
      User.item({
        ...blankProfile(),
        id: p.id,
        name: p.name,
        email: `${p.id}@example.com`,
        role: 'member',
        status: 'active',
        joinedAt: '2024-01-01T00:00:00.000Z',
      } as never),
    ),
  );
const scoreOf = (s: Scorer) => s.reactions + 2 * s.comments;

/** The answer every partition gives: listed people by score then name, ranked 1, 2, 2, 4. */
function expected(people: Scorer[], limit: number) {
  const rows = people
    .filter((p) => scoreOf(p) > 0)
    .sort((a, b) => scoreOf(b) - scoreOf(a) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return rows.slice(0, limit).map((p) => ({
    id: p.id,
    score: scoreOf(p),
    rank: 1 + rows.filter((o) => scoreOf(o) > scoreOf(p)).length,
  }));
}
const shape = (list: { id: string; score: number; rank: number }[]) =>
  list.map(({ id, score, rank }) => ({ id, score, rank }));

describe('a period read from its top list', () => {
  it('answers exactly, reading no day partition, a change at once; the build takes it in', async () => {
    // A window of its own, years away: its days hold this test's people only.
    const now = new Date(Date.parse('2034-02-20T12:00:00Z') + Math.floor(Math.random() * 1000) * 86_400_000 * 40);
    const days = periodDays(7, now);
    const tag = uniq();
    const people: Scorer[] = Array.from({ length: TOP_ROWS + 40 }, (_, i) => ({
      id: `lb-${tag}-${String(i).padStart(3, '0')}`,
      name: `Top ${tag} ${String(i % 37).padStart(2, '0')}`,
      reactions: 1 + ((i * 7) % 90),
      comments: i % 3,
    }));
    await putScorers(people);
    const score = (p: Scorer, at: string, reactions: number, comments = 0) =>
      transact(scoreWrites([{ userId: p.id, at, reactions, comments }], 'test'));
    for (let i = 0; i < people.length; i += 20)
      await Promise.all(
        people.slice(i, i + 20).map((p, k) => score(p, `${days[k % 7]}T10:00:00.000Z`, p.reactions, p.comments)),
      );

    await buildTopList('week', now);
    const top = await LeaderboardTop.get({ period: 'week', day: days[0] }, { consistent: true });
    expect(top?.rows.length).toBeGreaterThanOrEqual(TOP_ROWS);
    expect(top?.rows.length).toBeLessThan(people.length);
    expect(top?.floor).toBeGreaterThan(0);

    let reads = partitionReads();
    expect(shape(await leaderboard('week', 50, now))).toEqual(expected(people, 50));
    expect(reads()).toBe(0);

    // A person far below the list rises to the top, one at its top falls: in the answer at once.
    const riser = people.find((p) => !top!.rows.some(([id]) => id === p.id))!;
    const faller = people.find((p) => p.id === top!.rows[0]![0])!;
    await score(riser, `${days[0]}T11:00:00.000Z`, 500);
    riser.reactions += 500;
    await score(faller, `${days[1]}T11:00:00.000Z`, -faller.reactions + 1, -faller.comments);
    faller.reactions = 1;
    faller.comments = 0;
    const answer = shape(await leaderboard('week', 50, now));
    expect(answer[0]).toEqual({ id: riser.id, score: scoreOf(riser), rank: 1 });
    expect(answer).toEqual(expected(people, 50));
    expect(reads()).toBe(0);

    // A deactivated person is left out when read (the list still holds them).
    const gone = people.find((p) => p.id === answer[1]!.id)!;
    await write(
      User.update(
        { id: gone.id },
        {
          UpdateExpression: 'SET #s = :d',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':d': 'deactivated' },
        },
      ),
    );
    const listed = people.filter((p) => p !== gone);
    expect(shape(await leaderboard('week', 50, now))).toEqual(expected(listed, 50));
    expect(reads()).toBe(0);

    // The next build holds the change (the schedule's).
    await buildTopList('week', now);
    const rebuilt = await LeaderboardTop.get({ period: 'week', day: days[0] }, { consistent: true });
    expect(rebuilt!.rows[0]).toEqual(
      [riser.id, riser.reactions, 0, 0, 0].map((v, i) => (i === 2 ? riser.comments : v)),
    );
    expect(Date.parse(rebuilt!.builtAt)).toBeGreaterThan(Date.parse(top!.builtAt));

    // Enough of the list falling below its floor: the request answers the rows above the floor, exact,
    // and still reads no day partition; the next sweep makes the page whole again.
    for (const [id] of rebuilt!.rows.slice(0, 70)) {
      const p = people.find((x) => x.id === id)!;
      if (p === gone) continue;
      await score(p, `${days[2]}T11:00:00.000Z`, -p.reactions, -p.comments);
      p.reactions = 0;
      p.comments = 0;
    }
    reads = partitionReads();
    const vouched = shape(await leaderboard('week', 50, now));
    expect(vouched).toEqual(expected(listed, 50).filter((e) => e.score > rebuilt!.floor));
    expect(vouched.length).toBeLessThan(50);
    expect(reads()).toBe(0);
    await buildTopList('week', now);
    reads = partitionReads();
    expect(shape(await leaderboard('week', 50, now))).toEqual(expected(listed, 50));
    expect(reads()).toBe(0);
  }, 120_000);

  it('shows a new reaction at once through the API, and in the list after the next build', async () => {
    const author = await newMember();
    const fan = await newMember();
    await buildTopList('week');
    const post = await createPost(author.token, { content: `top list ${uniq()}` });
    expect(
      (await api('POST', `/posts/${post.id}/upvote`, { token: fan.token, body: { reaction: 'love' } })).status,
    ).toBe(200);
    const list = (await api('GET', '/people/leaderboard?period=week&limit=50', { token: fan.token })).body as any[];
    const hit = list.find((e) => e.id === author.id);
    if (hit) expect(hit).toMatchObject({ reactionCount: 1, score: 1 });
    else expect(list.length === 50 && list.every((e) => e.score >= 1)).toBe(true);
    await buildTopList('week');
    const top = await LeaderboardTop.get({ period: 'week', day: periodDays(7)[0] }, { consistent: true });
    const row = top?.rows.find(([id]) => id === author.id);
    // One reaction, no comment or share; their post counted for `postCount`.
    if (row) expect(row.slice(1)).toEqual([1, 0, 0, 1]);
    else expect(top?.floor).toBeGreaterThanOrEqual(1);
  });
  it('reads again only the changed people who may reach the page: a busy minute below it reads none of their days', async () => {
    const now = new Date(Date.parse('2036-05-20T12:00:00Z') + Math.floor(Math.random() * 1000) * 86_400_000 * 40);
    const days = periodDays(7, now);
    const tag = uniq();
    // Ten people far ahead, and many more far below them (on the list and off it).
    const people: Scorer[] = Array.from({ length: TOP_ROWS + 60 }, (_, i) => ({
      id: `lbp-${tag}-${String(i).padStart(3, '0')}`,
      name: `Busy ${tag} ${String(i).padStart(3, '0')}`,
      reactions: i < 10 ? 1_000 + 10 * i : 1 + (i % 20),
      comments: 0,
    }));
    await putScorers(people);
    const score = (p: Scorer, reactions: number) =>
      transact(scoreWrites([{ userId: p.id, at: `${days[0]}T10:00:00.000Z`, reactions }], 'test'));
    for (let i = 0; i < people.length; i += 20)
      await Promise.all(people.slice(i, i + 20).map((p) => score(p, p.reactions)));
    await buildTopList('week', now);

    // A change for each of 80 people below the page (none can reach it), then one of the page's own.
    const below = people.slice(10, 90);
    for (let i = 0; i < below.length; i += 20) await Promise.all(below.slice(i, i + 20).map((p) => score(p, 1)));
    for (const p of below) p.reactions += 1;
    const onPage = people[3]!;
    await score(onPage, 25);
    onPage.reactions += 25;

    const dayReads = vi.spyOn(FeedScoreDay, 'getMany');
    expect(shape(await leaderboard('week', 10, now))).toEqual(expected(people, 10));
    const read = new Set(dayReads.mock.calls.flatMap(([keys]) => keys.map((k) => (k as { userId: string }).userId)));
    expect([...read]).toEqual([onPage.id]);
  });
});
