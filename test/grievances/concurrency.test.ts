import { describe, expect, it } from 'vitest';
import { type BoardFilter, boardIndex } from '../../shared/grievances/board.ts';
import { Grievance, GrievanceTotals } from '../../shared/grievances/entities.ts';
import { totalOf } from '../../shared/grievances/totals.ts';
import { CATEGORIES, STATUSES } from '../../shared/grievances/vocabulary.ts';
import { api, newMember } from '../support/api.ts';
import { allReplies, changes, detail, move, raise, reply, unread, world } from './helpers.ts';

/** No lost updates: counters and histories stay exact under concurrent requests. */
describe('grievances: concurrency', () => {
  it('50 concurrent replies leave replyCount exact, and 25 concurrent deletes bring it down exactly', async () => {
    const { raiser, other } = await world();
    const g = await raise(raiser);
    const created = await Promise.all(
      Array.from({ length: 50 }, (_, i) => reply(i % 2 ? raiser : other, g.id, `concurrent reply ${i}`)),
    );
    expect((await detail(other, g.id)).replyCount).toBe(50);
    expect(new Set((await allReplies(other, g.id)).map((r) => r.id))).toEqual(new Set(created.map((r) => r.id)));
    const mine = created.filter((r) => r.isMine && r.authorRole === 'employee').slice(0, 25);
    const deletes = await Promise.all(
      mine.map((r) => api('DELETE', `/grievances/${g.id}/replies/${r.id}`, { token: other.token })),
    );
    expect(deletes.map((d) => d.status)).toEqual(mine.map(() => 204));
    expect((await detail(other, g.id)).replyCount).toBe(25);
    expect((await allReplies(other, g.id)).length).toBe(25);
  });

  it('concurrent status moves each leave exactly one history entry, chained in commit order', async () => {
    const { raiser, handler } = await world();
    const g = await raise(raiser);
    const targets = [
      'in_review',
      'resolved',
      'closed',
      'open',
      'in_review',
      'closed',
      'resolved',
      'in_review',
      'open',
      'closed',
    ];
    const moved = await Promise.all(targets.map((s, i) => move(handler, g.id, s, `Concurrent move ${i}`)));
    expect(moved.map((m) => m.status)).toEqual(targets);
    const history = await changes(raiser, g.id);
    expect(history.length).toBe(targets.length + 1);
    expect(history.at(-1)).toMatchObject({ fromStatus: null, toStatus: 'open' });
    // Newest first: each entry starts where the one below it ended.
    for (let i = 0; i < history.length - 1; i++) expect(history[i].fromStatus).toBe(history[i + 1].toStatus);
    expect(new Set(history.slice(0, -1).map((c) => c.reason))).toEqual(
      new Set(targets.map((_, i) => `Concurrent move ${i}`)),
    );
    const now = await detail(raiser, g.id);
    expect(now.status).toBe(history[0].toStatus);
    expect(now.statusNote).toBe(history[0].reason);
  });

  it('two (and ten) concurrent first reads count once', async () => {
    const { raiser, other } = await world();
    const third = await newMember();
    const [g1, g2] = [await raise(raiser), await raise(raiser)];
    const before = await unread(other);
    const two = await Promise.all([1, 2].map(() => api('POST', `/grievances/${g1.id}/read`, { token: other.token })));
    expect(two.map((r) => r.status)).toEqual([204, 204]);
    expect(await unread(other)).toBe(before - 1);
    const ten = await Promise.all(
      Array.from({ length: 10 }, () => api('POST', `/grievances/${g2.id}/read`, { token: other.token })),
    );
    expect(ten.every((r) => r.status === 204)).toBe(true);
    expect(await unread(other)).toBe(before - 2);
    expect((await detail(other, g1.id)).unread).toBe(false);
    expect((await detail(third, g1.id)).unread).toBe(true);
  });

  it('totals stay exact under concurrent raises and moves: they match a count of the board indexes', async () => {
    const { raiser, handler } = await world();
    const raised = await Promise.all(
      Array.from({ length: 20 }, (_, i) => raise(raiser, { category: CATEGORIES[i % CATEGORIES.length] })),
    );
    await Promise.all(raised.slice(0, 10).map((g, i) => move(handler, g.id, STATUSES[i % STATUSES.length])));
    // Other test files may raise meanwhile: compare only when the totals did not move during the count.
    for (let attempt = 0; ; attempt++) {
      const before = await GrievanceTotals.get({}, { consistent: true });
      const counts = await countBoard();
      const after = await GrievanceTotals.get({}, { consistent: true });
      if (JSON.stringify(before) !== JSON.stringify(after) && attempt < 5) continue;
      for (const [filter, n] of counts) expect(after ? totalOf(after, filter) : 0, JSON.stringify(filter)).toBe(n);
      break;
    }
  });
});

/** Counts every board index partition (a test may count; request paths never do). */
async function countBoard(): Promise<Map<BoardFilter, number>> {
  const filters: BoardFilter[] = [
    {},
    ...STATUSES.map((status) => ({ status })),
    ...CATEGORIES.map((category) => ({ category })),
    ...STATUSES.flatMap((status) => CATEGORIES.map((category) => ({ status, category }))),
  ];
  const counts = new Map<BoardFilter, number>();
  for (const f of filters) counts.set(f, (await Grievance.queryAll({ index: boardIndex(f), key: f })).length);
  return counts;
}
