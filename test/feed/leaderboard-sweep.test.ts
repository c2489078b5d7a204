import { afterEach, describe, expect, it, vi } from 'vitest';
import { FeedScoreDay, LeaderboardTop } from '../../shared/feed/entities.ts';
import {
  buildTopList,
  foldScoreChanges,
  keepTopLists,
  leaderboard,
  periodDays,
  REQUEST_CHANGES,
  SWEEP_PAGE,
  TOP_ROWS,
} from '../../shared/feed/leaderboard.ts';
import { uniq } from '../support/api.ts';
import { draws, farAway, fromPartitions, metered, recordsOf, Scores, shape } from './leaderboard-support.ts';

/**
 * Issue 47, item 2: a week's or month's leaderboard never reads the period's day partitions on a
 * request, whatever its list's state: a window whose list was never built (rolled ahead from the day
 * before, or made by the first change folded), and a list short of the limit (it answers the rows it
 * can vouch for until the schedule's sweep, bounded per run and resumable, makes it whole). Each
 * answer is checked against the test's own model and against what reading every partition answers
 * (ranks, ties by name, deactivated people left out), every DynamoDB answer counted.
 */
afterEach(() => vi.restoreAllMocks());

const DAY = 86_400_000;
/** The day partitions read (Queries of FeedScoreDay's primary key, not of its changes index). */
function partitionReads() {
  const spy = vi.spyOn(FeedScoreDay, 'queryAll');
  return {
    calls: () => spy.mock.calls.filter(([where]) => !where.index).length,
    /** Items each of those Queries answered. */
    sizes: async () =>
      Promise.all(
        spy.mock.calls.flatMap(([where], i) =>
          where.index ? [] : [(spy.mock.results[i]!.value as Promise<unknown[]>).then((items) => items.length)],
        ),
      ),
    clear: () => spy.mockClear(),
  };
}

/** A request's reads: the list, ≤ REQUEST_CHANGES changes, their people's days, the profiles of the top. */
const requestBound = (days: number) => ({
  items: 1 + REQUEST_CHANGES + REQUEST_CHANGES * days + TOP_ROWS + REQUEST_CHANGES,
  requests: 1 + 3 + Math.ceil((REQUEST_CHANGES * days) / 100) + 4,
});

describe('a leaderboard whose window has no list built', () => {
  it('answers exactly from the list rolled ahead the day before and folded since, reading no day partition', async () => {
    const D = farAway('2038-05-20T12:00:00Z');
    const Y = new Date(D.getTime() - DAY);
    const month = periodDays(30, D);
    const monthBefore = periodDays(30, Y);
    const people = new Scores(
      Array.from({ length: 160 }, (_, i) => `lr-${uniq()}-${String(i).padStart(3, '0')}`),
      `Roll ${uniq()}`,
    );
    await people.seed();
    const draw = draws(4701);
    // Before day D: each person scores on three days of the window ending the day before (D − 30 and
    // D − 7 among them, which leave the month's and the week's windows at D: the fall a fold cannot
    // make, which the roll makes).
    for (let i = 0; i < people.ids.length; i += 20)
      await Promise.all(
        people.ids.slice(i, i + 20).flatMap((id) =>
          [0, 1, 2].map((k) => {
            // The most on days that stay in both windows at D (D − 1 to D − 6), a little on any day.
            const day = k === 0 ? monthBefore[draw(6)] : monthBefore[draw(30)];
            return people.give(id, day!, 1 + draw(k === 0 ? 40 : 12));
          }),
        ),
      );
    await buildTopList('week', Y);
    await buildTopList('month', Y);

    // On the day before, one change folded: the consumer makes the lists of D's windows (tomorrow's),
    // rolled from the day's own by key, no day partition read; D's window has no list built.
    const reads = partitionReads();
    const first = await people.give(people.ids[7]!, monthBefore[0]!, 3);
    await foldScoreChanges(await recordsOf([first]), Y);
    expect(reads.calls()).toBe(0);
    for (const period of ['week', 'month'] as const) {
      const rolled = await LeaderboardTop.get({ period, day: month[0]! }, { consistent: true });
      const from = await LeaderboardTop.get({ period, day: monthBefore[0]! }, { consistent: true });
      expect(rolled?.days).toEqual(periodDays(period === 'week' ? 7 : 30, D));
      expect(rolled?.builtAt).toBe(from?.builtAt);
      expect(rolled?.floor).toBe(from?.floor);
      expect(rolled?.sweep).toBeDefined();
    }

    // Day D: 600 changes, rises and falls, on any day of its month (D itself included), folded at D.
    const changes = Array.from({ length: 600 }, () => ({
      id: people.ids[draw(people.ids.length)]!,
      day: month[draw(3) ? draw(8) : draw(30)]!,
      up: draw(4) !== 0,
      n: 1 + draw(9),
    }));
    const touched: { userId: string; day: string }[] = [];
    for (let i = 0; i < changes.length; i += 25)
      for (const c of new Map(changes.slice(i, i + 25).map((c) => [c.id, c])).values()) {
        const n = c.up ? c.n : -Math.min(c.n, people.on(c.id, c.day));
        if (n) touched.push(await people.give(c.id, c.day, n));
      }
    const records = await recordsOf(touched);
    for (let i = 0; i < records.length; i += 100) await foldScoreChanges(records.slice(i, i + 100), D);
    // A person at the top deactivated: left out when read.
    await people.deactivate(people.top(periodDays(7, D))[2]!);

    for (const [period, n] of [
      ['week', 7],
      ['month', 30],
    ] as const) {
      const days = periodDays(n, D);
      const bystander = await fromPartitions(days, 50);
      expect(bystander).toEqual(people.expected(days, 50));
      reads.clear();
      const { value, requests, items } = await metered(() => leaderboard(period, 50, D));
      expect(shape(value)).toEqual(bystander);
      expect(value).toHaveLength(50);
      expect(reads.calls()).toBe(0);
      const bound = requestBound(n);
      console.info(`rolled ${period}: ${requests} requests, ${items} items (bound ${bound.requests} / ${bound.items})`);
      expect(items).toBeLessThanOrEqual(bound.items);
      expect(requests).toBeLessThanOrEqual(bound.requests);
    }
  }, 300_000);

  it('makes the list from the first change folded; before it a request vouches for nobody, reading no day partition', async () => {
    const now = farAway('2039-08-10T12:00:00Z');
    const days = periodDays(7, now);
    const people = new Scores(
      Array.from({ length: 40 }, (_, i) => `ln-${uniq()}-${String(i).padStart(2, '0')}`),
      `New ${uniq()}`,
    );
    await people.seed();
    const draw = draws(4702);
    for (const id of people.ids) await people.give(id, days[draw(7)]!, 1 + draw(6));

    const reads = partitionReads();
    expect(await leaderboard('week', 20, now)).toEqual([]);
    expect(await leaderboard('month', 20, now)).toEqual([]);
    expect(reads.calls()).toBe(0);

    // The first change the consumer folds makes the window's lists (a sweep of a small company: whole).
    const change = await people.give(people.ids[0]!, days[0]!, 5);
    await foldScoreChanges(await recordsOf([change]), now);
    const made = await LeaderboardTop.get({ period: 'week', day: days[0]! }, { consistent: true });
    expect(made?.sweep).toBeUndefined();
    expect(made?.floor).toBe(0);

    await people.deactivate(people.top(days)[0]!);
    for (const period of ['week', 'month'] as const) {
      const window = periodDays(period === 'week' ? 7 : 30, now);
      const bystander = await fromPartitions(window, 20);
      expect(bystander).toEqual(people.expected(window, 20));
      reads.clear();
      expect(shape(await leaderboard(period, 20, now))).toEqual(bystander);
      expect(reads.calls()).toBe(0);
    }
  }, 120_000);
});

describe('a list short of the limit', () => {
  it('vouches for its rows above the floor, and the schedule sweeps it whole in bounded, resumable runs', async () => {
    const now = farAway('2041-01-15T12:00:00Z');
    const days = periodDays(7, now);
    const people = new Scores(
      Array.from({ length: 330 }, (_, i) => `ls-${uniq()}-${String(i).padStart(3, '0')}`),
      `Short ${uniq()}`,
    );
    await people.seed();
    const draw = draws(4703);
    // Five days each: every day partition holds more than twice a sweep's page.
    for (let i = 0; i < people.ids.length; i += 30)
      await Promise.all(
        people.ids
          .slice(i, i + 30)
          .flatMap((id, k) => [0, 1, 2, 3, 4].map((d) => people.give(id, days[(i + k + d) % 7]!, 1 + draw(30)))),
      );
    await buildTopList('week', now);
    const built = await LeaderboardTop.get({ period: 'week', day: days[0]! }, { consistent: true });
    expect(built?.rows.length).toBeGreaterThanOrEqual(TOP_ROWS);
    expect(built?.floor).toBeGreaterThan(0);

    // 70 of the list's people fall to nothing (their points taken back), folded: too few rows are left
    // above the floor for a page of 50, and the fold marks the list for a sweep.
    const fallen: { userId: string; day: string }[] = [];
    for (const [id] of built!.rows.slice(0, 70))
      for (const day of days) if (people.on(id, day)) fallen.push(await people.give(id, day, -people.on(id, day)));
    await foldScoreChanges(await recordsOf(fallen), now);
    const short = await LeaderboardTop.get({ period: 'week', day: days[0]! }, { consistent: true });
    expect(short?.stale).toBe(true);
    await people.deactivate(people.top(days)[0]!);

    // The request answers the rows above the floor, exactly (ranks and ties as the whole answer has
    // them): fewer than the limit, none out of place, no day partition read.
    const reads = partitionReads();
    const whole = people.expected(days, 50);
    expect(await fromPartitions(days, 50)).toEqual(whole);
    reads.clear();
    const { value, requests, items } = await metered(() => leaderboard('week', 50, now));
    expect(reads.calls()).toBe(0);
    expect(shape(value)).toEqual(whole.filter((e) => e.score > short!.floor));
    expect(value.length).toBeGreaterThan(0);
    expect(value.length).toBeLessThan(50);
    expect(items).toBeLessThanOrEqual(requestBound(7).items);
    expect(requests).toBeLessThanOrEqual(requestBound(7).requests);

    // The schedule's runs, one sweep step each here: the lists it keeps made first, then each run reads
    // one page of each day partition, records where it stopped, and the next run resumes; changes
    // folded between runs (people on both sides of the sweep's cursor).
    await keepTopLists(now, { steps: 0 });
    let runs = 0;
    for (; runs < 60; runs++) {
      const list = await LeaderboardTop.get({ period: 'week', day: days[0]! }, { consistent: true });
      if (!list?.sweep) break;
      reads.clear();
      const run = await keepTopLists(now, { steps: 1 });
      expect(run.steps).toBe(1);
      expect(reads.calls()).toBeLessThanOrEqual(7);
      for (const size of await reads.sizes()) expect(size).toBeLessThanOrEqual(SWEEP_PAGE);
      const moved = [0, 1, 2].map(() => people.ids[draw(people.ids.length)]!);
      const folded = [];
      for (const id of moved) folded.push(await people.give(id, days[draw(7)]!, 1 + draw(40)));
      await foldScoreChanges(await recordsOf(folded), now);
    }
    expect(runs).toBeGreaterThanOrEqual(2);
    const swept = await LeaderboardTop.get({ period: 'week', day: days[0]! }, { consistent: true });
    expect(swept?.sweep).toBeUndefined();
    expect(swept?.stale).toBeUndefined();
    expect(swept!.floor).toBeLessThan(short!.floor);

    const after = people.expected(days, 50);
    expect(await fromPartitions(days, 50)).toEqual(after);
    reads.clear();
    const exact = await leaderboard('week', 50, now);
    expect(shape(exact)).toEqual(after);
    expect(exact).toHaveLength(50);
    expect(reads.calls()).toBe(0);
    console.info(`short list: ${value.length} rows vouched for; swept whole in ${runs} runs of one step`);
  }, 300_000);
});
