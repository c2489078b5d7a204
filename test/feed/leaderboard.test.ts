import { describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { putMany, transact } from '../../shared/db/table.ts';
import { FeedScoreDay } from '../../shared/feed/entities.ts';
import { buildTopList, leaderboard, periodDays } from '../../shared/feed/leaderboard.ts';
import { scoreWrites } from '../../shared/feed/scores.ts';
import { admin, api, newMember, settled } from '../support/api.ts';
import { createPost } from './helpers.ts';

const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 3600 * 1000).toISOString();

describe('leaderboard', () => {
  it('counts by the day of the reaction, comment or share: week, month and all', async () => {
    const x = await newMember();
    // Points received 3 days ago (in all three periods) and 12 days ago (month and all only).
    await transact(scoreWrites([{ userId: x.id, at: daysAgo(3), reactions: 2, comments: 1 }], 'test'));
    await transact(scoreWrites([{ userId: x.id, at: daysAgo(12), shares: 1, reactions: 1 }], 'test'));
    await transact(scoreWrites([{ userId: x.id, at: daysAgo(45), reactions: 10 }], 'test'));
    // The leaderboard-fold consumer has taken the changes in (and made today's lists, were there none).
    await settled();
    const find = async (period: 'week' | 'month' | 'all') => (await leaderboard(period, 50)).find((e) => e.id === x.id);
    expect(await find('week')).toMatchObject({ reactionCount: 2, commentCount: 1, shareCount: 0, score: 4 });
    expect(await find('month')).toMatchObject({ reactionCount: 3, commentCount: 1, shareCount: 1, score: 8 });
    const all = (await api('GET', '/people/leaderboard?period=all&limit=50', { token: x.token })).body;
    const e = all.find((r: any) => r.id === x.id);
    if (e) expect(e).toMatchObject({ reactionCount: 13, score: 18 });
    else expect(all.every((r: any) => r.score >= 18)).toBe(true);
  });

  it('ranks 1, 2, 2, 4 with ties by name, leaves out zero scores and deactivated people', async () => {
    const names = ['Zed', 'Amy', 'Bob', 'Cat'].map((n) => `${n} ${Math.random().toString(36).slice(2, 8)}`);
    const [z, a, b, c] = await Promise.all(names.map((name) => newMember({ name })));
    const base = 1_000_000 + Math.floor(Math.random() * 1000) * 10; // far above every other test's scores
    await transact(scoreWrites([{ userId: z.id, at: daysAgo(0), reactions: base + 5 }], 'test'));
    await transact(
      scoreWrites(
        [
          { userId: a.id, at: daysAgo(0), reactions: base + 3 },
          { userId: b.id, at: daysAgo(0), reactions: base + 3 },
        ],
        'test',
      ),
    );
    await transact(scoreWrites([{ userId: c.id, at: daysAgo(0), reactions: base + 1 }], 'test'));
    await settled();
    const list = (await leaderboard('week', 50)).filter((e) => [z.id, a.id, b.id, c.id].includes(e.id));
    expect(list.map((e) => e.id)).toEqual([z.id, a.id, b.id, c.id]);
    const top = list[0].rank;
    expect(list.map((e) => e.rank - top)).toEqual([0, 1, 1, 3]);
    const boss = await admin();
    await api('PATCH', `/admin/members/${z.id}/status`, { token: boss.token, body: { status: 'deactivated' } });
    expect((await leaderboard('week', 50)).some((e) => e.id === z.id)).toBe(false);
    expect((await leaderboard('all', 50)).some((e) => e.id === z.id)).toBe(false);
  });

  it('periods are whole UTC days: today and the 6 or 29 before', () => {
    const days = periodDays(7, new Date('2026-03-10T10:00:00Z'));
    expect(days[0]).toBe('2026-03-10');
    expect(days[6]).toBe('2026-03-04');
    expect(periodDays(30)).toHaveLength(30);
  });
});

describe('contributors', () => {
  it('lists featured people first, then the most posts (at least one), no one twice', async () => {
    const boss = await admin();
    const m = await newMember();
    const writer = await newMember();
    await createPost(writer.token, { content: 'one' });
    await createPost(writer.token, { content: 'two' });
    await createPost(m.token, { content: 'featured and writing' });
    expect(
      (
        await api('PATCH', `/admin/members/${m.id}/featured`, {
          token: boss.token,
          body: { featured: true, note: 'Guild lead' },
        })
      ).status,
    ).toBe(200);
    try {
      const list = (await api('GET', '/people/contributors?limit=50', { token: m.token })).body as any[];
      const firstTail = list.findIndex((x) => !x.isFeatured);
      expect(list.filter((x) => x.id === m.id)).toHaveLength(1);
      expect(list.findIndex((x) => x.id === m.id)).toBeLessThan(firstTail === -1 ? list.length : firstTail);
      const tail = list.slice(firstTail);
      for (let i = 1; i < tail.length; i++) expect(tail[i - 1].postCount).toBeGreaterThanOrEqual(tail[i].postCount);
      expect(tail.every((x) => x.postCount >= 1 && x.note === '')).toBe(true);
      expect(new Set(list.map((x) => x.id)).size).toBe(list.length);
      expect((await api('GET', '/people/contributors?limit=0', { token: m.token })).status).toBe(400);
    } finally {
      await api('PATCH', `/admin/members/${m.id}/featured`, { token: boss.token, body: { featured: false } });
    }
  });
});

describe('leaderboard of a period: the profiles of its top only', () => {
  it('reads the profiles of the top rows, ties and unlisted people among them, not of every scorer', async () => {
    // A week of its own, long ago, that no other test writes.
    const now = new Date('2001-03-15T12:00:00.000Z');
    const day = '2001-03-14';
    const tag = Math.random().toString(36).slice(2, 8);
    const [a, b, c] = await Promise.all(['Ann', 'Bea', 'Cy'].map((n) => newMember({ name: `${n} ${tag}` })));
    const row = (userId: string, reactions: number) =>
      FeedScoreDay.item({
        day,
        userId,
        reactions,
        comments: 0,
        shares: 0,
        posts: 0,
        score: reactions,
        actorId: 'test',
      });
    // 150 scorers without a profile (gone), one of them on top; three listed people, two tied.
    const gone = Array.from({ length: 150 }, (_, i) => row(`lb-gone-${tag}-${i}`, i === 0 ? 1000 : 1 + (i % 90)));
    await putMany([...gone, row(a.id, 500), row(b.id, 400), row(c.id, 400)]);
    // Written straight, past the change feed: the week's list swept from its days (the schedule's work).
    await buildTopList('week', now);

    const send = vi.spyOn(db(), 'send');
    let top: Awaited<ReturnType<typeof leaderboard>> = [];
    try {
      top = await leaderboard('week', 2, now);
    } finally {
      const profiles = send.mock.calls.flatMap(([command]: any[]) =>
        Object.values((command.input?.RequestItems ?? {}) as Record<string, { Keys?: any[] }>).flatMap((r) =>
          (r.Keys ?? []).filter((k) => k.sk === 'PROFILE').map((k) => k.pk as string),
        ),
      );
      send.mockRestore();
      // The gone one on top and Ann; then one more listed person, and the tie with them.
      expect(profiles.sort()).toEqual([`USER#lb-gone-${tag}-0`, `USER#${a.id}`, `USER#${b.id}`, `USER#${c.id}`].sort());
    }
    expect(top.map((e) => [e.id, e.rank, e.score])).toEqual([
      [a.id, 1, 500],
      [b.id, 2, 400],
    ]);
    // limit 3: the tie whole, ordered by name, sharing the rank.
    expect((await leaderboard('week', 3, now)).map((e) => [e.id, e.rank])).toEqual([
      [a.id, 1],
      [b.id, 2],
      [c.id, 2],
    ]);
  });
});
