import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { putMany, transact, write } from '../../shared/db/table.ts';
import { FeedScoreDay } from '../../shared/feed/entities.ts';
import {
  buildTopList,
  foldScoreChanges,
  leaderboard,
  periodDays,
  REQUEST_CHANGES,
  TOP_ROWS,
} from '../../shared/feed/leaderboard.ts';
import { scoreWrites } from '../../shared/feed/scores.ts';
import { User } from '../../shared/people/entities.ts';
import { blankProfile } from '../../shared/people/users.ts';
import { uniq } from '../support/api.ts';
import { draws, metered } from './leaderboard-support.ts';

/**
 * The week's and month's top lists kept up to date by the stream consumer `leaderboard-fold` (issue 47):
 * after 1,000 score changes between two builds, folded as the stream hands their day items over (new images), a request answers
 * exactly what reading every partition answers, reads no day partition, and reads a bounded number of
 * items (every DynamoDB answer counted by a middleware on the client, as test/people/directory-reads does).
 */
afterEach(() => vi.restoreAllMocks());

describe('a top list folded from the score changes', () => {
  it('is exact after 1,000 changes between two builds, its request reading a bounded number of items', async () => {
    // A window of its own, years away: its days hold this test's people only.
    const now = new Date(Date.parse('2036-03-20T12:00:00Z') + Math.floor(Math.random() * 1000) * 86_400_000 * 40);
    const days = periodDays(30, now);
    const tag = uniq();
    const ids = Array.from({ length: 160 }, (_, i) => `lf-${tag}-${String(i).padStart(3, '0')}`);
    const names = new Map(ids.map((id, i) => [id, `Fold ${tag} ${String(i % 41).padStart(2, '0')}`]));
    await putMany(
      ids.map((id) =>
        User.item({
          ...blankProfile(),
          id,
          name: names.get(id)!,
          email: `${id}@example.com`,
          role: 'member',
          status: 'active',
          joinedAt: '2024-01-01T00:00:00.000Z',
        } as never),
      ),
    );
    // Each person's reactions per day of the month's window (index into `days`).
    const held = new Map(ids.map((id) => [id, new Array<number>(30).fill(0)]));
    const score = (id: string, d: number, reactions: number) => {
      held.get(id)![d]! += reactions;
      return transact(scoreWrites([{ userId: id, at: `${days[d]}T10:00:00.000Z`, reactions }], 'test'));
    };
    for (let i = 0; i < ids.length; i += 20)
      await Promise.all(ids.slice(i, i + 20).map((id, k) => score(id, (i + k) % 30, 1 + (((i + k) * 7) % 60))));
    await buildTopList('week', now);
    await buildTopList('month', now);

    // 1,000 changes: rises (people far below the lists among them) and falls, on any day of the window.
    const draw = draws(47);
    const changes = Array.from({ length: 1000 }, () => {
      const id = ids[draw(ids.length)]!;
      return { id, d: draw(30), up: draw(4) !== 0, n: 1 + draw(9) };
    });
    for (let i = 0; i < changes.length; i += 25)
      await Promise.all(
        // One change per person per round (the falls read what the person holds on that day).
        [...new Map(changes.slice(i, i + 25).map((c) => [c.id, c])).values()].map((c) => {
          const n = c.up ? c.n : -Math.min(c.n, held.get(c.id)![c.d]!);
          return n ? score(c.id, c.d, n) : Promise.resolve();
        }),
      );
    // The records the stream carries: each changed day item's new image (the item as stored), in order.
    const touched = [...new Map(changes.map((c) => [`${c.id}|${c.d}`, { userId: c.id, day: days[c.d]! }])).values()];
    const images = [];
    for (let i = 0; i < touched.length; i += 100)
      images.push(...(await FeedScoreDay.getMany(touched.slice(i, i + 100), { consistent: true })));
    const records: DynamoDBRecord[] = images
      .filter((i) => !!i)
      .map((i) => ({ eventName: 'MODIFY', dynamodb: { NewImage: marshall(i) as never } }));
    expect(records.length).toBeGreaterThan(400);
    console.info(`${touched.length} day items changed, ${records.length} records folded`);
    // As the event source mapping hands them over: batches of 100.
    for (let i = 0; i < records.length; i += 100) await foldScoreChanges(records.slice(i, i + 100), now);

    // A person on the lists deactivated: left out when read, as before.
    const total = (id: string, n: number) =>
      held
        .get(id)!
        .slice(0, n)
        .reduce((a, b) => a + b, 0);
    const gone = [...ids].sort((a, b) => total(b, 7) - total(a, 7))[3]!;
    await write(
      User.update(
        { id: gone },
        {
          UpdateExpression: 'SET #s = :d',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':d': 'deactivated' },
        },
      ),
    );

    const partitions = vi.spyOn(FeedScoreDay, 'queryAll');
    for (const [period, n] of [
      ['week', 7],
      ['month', 30],
    ] as const) {
      const rows = ids
        .filter((id) => id !== gone && total(id, n) > 0)
        .sort((a, b) => total(b, n) - total(a, n) || names.get(a)!.localeCompare(names.get(b)!) || a.localeCompare(b));
      const expected = rows.slice(0, 50).map((id) => ({
        id,
        score: total(id, n),
        rank: 1 + rows.filter((o) => total(o, n) > total(id, n)).length,
      }));
      partitions.mockClear();
      const { value, requests, items } = await metered(() => leaderboard(period, 50, now));
      expect(value.map(({ id, score, rank }) => ({ id, score, rank }))).toEqual(expected);
      expect(partitions.mock.calls.filter(([where]) => !where.index)).toHaveLength(0);
      // The list, a page of changes per UTC day since the fold (1 or 2), their people's days by key,
      // the profiles of the top rows: bounded by constants, not by the people or changes of the period.
      const bound = 1 + 2 * REQUEST_CHANGES + REQUEST_CHANGES * n + TOP_ROWS;
      console.info(`leaderboard ${period}: ${requests} requests, ${items} items read (bound ${bound})`);
      expect(items).toBeLessThanOrEqual(bound);
      expect(requests).toBeLessThanOrEqual(2 + 2 + Math.ceil((REQUEST_CHANGES * n) / 100) + 3);
    }
  }, 300_000);
});
