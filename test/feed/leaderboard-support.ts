import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { db } from '../../shared/db/client.ts';
import { putMany, transact, write } from '../../shared/db/table.ts';
import { FeedScoreDay } from '../../shared/feed/entities.ts';
import { scoreWrites } from '../../shared/feed/scores.ts';
import { User } from '../../shared/people/entities.ts';
import { blankProfile } from '../../shared/people/users.ts';
import { addReadMeter, type ReadMeter } from '../support/read-meter.ts';

/** Helpers of the leaderboard's tests (test/feed/leaderboard-*.test.ts). */

/** Requests sent and items read through the client while `run` runs (a middleware on the client). */
export async function metered<T>(run: () => Promise<T>): Promise<{ value: T; requests: number; items: number }> {
  const meter: ReadMeter = { requests: 0, items: 0 };
  const stack = db().middlewareStack;
  addReadMeter(stack, meter, 'leaderboardMeter');
  try {
    return { value: await run(), ...meter };
  } finally {
    stack.remove('leaderboardMeter');
  }
}

/** Deterministic draws (a seeded LCG), so a failure replays. */
export function draws(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

/** A moment years away, with a window of its own: its days hold one test's people only. */
export const farAway = (from: string) =>
  new Date(Date.parse(from) + Math.floor(Math.random() * 1000) * 86_400_000 * 40);

/**
 * A test's people (active profiles; names repeat, so ties of score are ordered by name, then id) and
 * the reactions it gave each of them per UTC day: the model every answer is checked against.
 */
export class Scores {
  readonly names = new Map<string, string>();
  readonly gone = new Set<string>();
  private readonly held = new Map<string, Map<string, number>>();

  readonly ids: string[];

  constructor(ids: string[], label: string) {
    this.ids = ids;
    ids.forEach((id, i) => {
      this.names.set(id, `${label} ${String(i % 41).padStart(2, '0')}`);
      this.held.set(id, new Map());
    });
  }

  async seed(): Promise<void> {
    await putMany(
      this.ids.map((id) =>
        User.item({
          ...blankProfile(),
          id,
          name: this.names.get(id)!,
          email: `${id}@example.com`,
          role: 'member',
          status: 'active',
          joinedAt: '2024-01-01T00:00:00.000Z',
        } as never),
      ),
    );
  }

  on(id: string, day: string): number {
    return this.held.get(id)!.get(day) ?? 0;
  }

  /** `reactions` more (or fewer) for `id` on `day`, as the service writes them; answers the day item's key. */
  async give(id: string, day: string, reactions: number): Promise<{ userId: string; day: string }> {
    this.held.get(id)!.set(day, this.on(id, day) + reactions);
    await transact(scoreWrites([{ userId: id, at: `${day}T10:00:00.000Z`, reactions }], 'test'));
    return { userId: id, day };
  }

  total(id: string, days: string[]): number {
    return days.reduce((sum, day) => sum + this.on(id, day), 0);
  }

  async deactivate(id: string): Promise<void> {
    this.gone.add(id);
    await write(
      User.update(
        { id },
        {
          UpdateExpression: 'SET #s = :d',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':d': 'deactivated' },
        },
      ),
    );
  }

  /** The people by their score over `days`, highest first (everybody, the deactivated too). */
  top(days: string[]): string[] {
    return [...this.ids].sort((a, b) => this.total(b, days) - this.total(a, days));
  }

  /** The answer the specification asks for: listed people above zero, by score then name, ranked 1, 2, 2, 4. */
  expected(days: string[], limit: number) {
    const rows = this.ids
      .filter((id) => !this.gone.has(id) && this.total(id, days) > 0)
      .sort(
        (a, b) =>
          this.total(b, days) - this.total(a, days) ||
          this.names.get(a)!.localeCompare(this.names.get(b)!) ||
          a.localeCompare(b),
      );
    return rows.slice(0, limit).map((id) => ({
      id,
      score: this.total(id, days),
      rank: 1 + rows.filter((o) => this.total(o, days) > this.total(id, days)).length,
    }));
  }
}

export const shape = (list: { id: string; score: number; rank: number }[]) =>
  list.map(({ id, score, rank }) => ({ id, score, rank }));

/** The stream's records of these day items: each one's new image (the item as stored now). */
export async function recordsOf(keys: { userId: string; day: string }[]): Promise<DynamoDBRecord[]> {
  const unique = [...new Map(keys.map((k) => [`${k.userId}|${k.day}`, k])).values()];
  const images = [];
  for (let i = 0; i < unique.length; i += 100)
    images.push(...(await FeedScoreDay.getMany(unique.slice(i, i + 100), { consistent: true })));
  return images.filter((i) => !!i).map((i) => ({ eventName: 'MODIFY', dynamodb: { NewImage: marshall(i) as never } }));
}

/**
 * What reading every day partition of the window answers (the leaderboard before issue 47, kept here as
 * the bystander the answers are compared with): every person's tally summed over the days, the listed
 * ones (not deactivated) above zero by score, then name, then id; rank = 1 + the listed people above.
 */
export async function fromPartitions(days: string[], limit: number) {
  const items = (
    await Promise.all(days.map((day) => FeedScoreDay.queryAll({ key: { day }, consistent: true })))
  ).flat();
  const sums = new Map<string, number>();
  for (const item of items) sums.set(item.userId, (sums.get(item.userId) ?? 0) + (item.reactions ?? 0));
  const ids = [...sums.keys()];
  const people = new Map<string, { name: string; status: string }>();
  for (let i = 0; i < ids.length; i += 100)
    for (const u of await User.getMany(ids.slice(i, i + 100).map((id) => ({ id }))))
      if (u) people.set(u.id, { name: u.name, status: u.status });
  const rows = ids
    .filter((id) => people.has(id) && people.get(id)!.status !== 'deactivated' && sums.get(id)! > 0)
    .sort(
      (a, b) =>
        sums.get(b)! - sums.get(a)! || people.get(a)!.name.localeCompare(people.get(b)!.name) || a.localeCompare(b),
    );
  return rows.slice(0, limit).map((id) => ({
    id,
    score: sums.get(id)!,
    rank: 1 + rows.filter((o) => sums.get(o)! > sums.get(id)!).length,
  }));
}
