import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb.ts';
import { type EntityFields, type EntityItem, entity, shape } from '../db/entity.ts';
import { type Item, putMany } from '../db/table.ts';
import type { DataMigration } from './migration.ts';
import { migrationStates, runMigrations, setPaused } from './runner.ts';

/** A table of its own: the walk, its pages and its counts are this test's alone. */
const table = `migrations-${randomUUID().slice(0, 8)}`;
const savedTable = process.env.TABLE_NAME;

const Probe = entity({
  name: 'MigrationProbe',
  fields: shape<{
    id: string;
    n: number;
    /** The "new form": absent on items written before the migration. */
    double: number;
  }>(),
  key: { pk: ['PROBE', 'id'], sk: ['PROBE'] },
  legacy: ['double'],
});
type ProbeItem = EntityItem<typeof Probe>;

const doubling: DataMigration = {
  id: '0001-probe-double',
  description: 'probes store their double',
  entities: ['MigrationProbe'],
  // Small pages, so that a few dozen items span several of them: the whole suite's emulator answers a
  // write in a few hundred milliseconds late in the run, and each item here is a write.
  pageSize: 20,
  migrate: (i: Item) =>
    i.double === undefined
      ? [
          Probe.updateStored(
            { pk: i.pk, sk: i.sk },
            {
              UpdateExpression: 'SET #d = :d',
              ConditionExpression: 'attribute_not_exists(#d)',
              ExpressionAttributeNames: { '#d': 'double' },
              ExpressionAttributeValues: { ':d': (i.n as number) * 2 },
            },
          ),
        ]
      : [],
};
const COUNT = 60;
const ids = Array.from({ length: COUNT }, (_, n) => `p${String(n).padStart(4, '0')}`);

async function probes(): Promise<ProbeItem[]> {
  const found = await Probe.getMany(
    ids.map((id) => ({ id })),
    { consistent: true },
  );
  return found.filter((p) => p !== undefined);
}

/** Each test walks its table more than once, a write per item. */
const WALKS_MS = 400_000;
/** A run that must finish its walk: as long as a loaded machine needs (CI once passed 60 s). */
const WHOLE_WALK_MS = 180_000;

describe('the migrations runner', () => {
  beforeAll(async () => {
    process.env.TABLE_NAME = table;
    await ensureTable(new DynamoDBClient({ region: process.env.AWS_REGION }), table, { stream: false });
    await putMany(ids.map((id, n) => Probe.item({ id, n } as EntityFields<typeof Probe>)));
  });
  afterAll(() => {
    process.env.TABLE_NAME = savedTable;
  });

  it(
    'stops after its pages when interrupted, and the next run completes it from where it stopped',
    async () => {
      const first = await runMigrations([doubling], { budgetMs: 60_000, maxPages: 1 });
      expect(first.complete).toBe(false);
      const [after1] = first.states;
      expect(after1.status).toBe('running');
      expect(after1.changed).toBeGreaterThan(0);
      expect(after1.changed).toBeLessThan(COUNT);
      expect((await probes()).filter((p) => p.double !== undefined)).toHaveLength(after1.changed);

      const second = await runMigrations([doubling], { budgetMs: WHOLE_WALK_MS });
      expect(second.complete).toBe(true);
      expect(second.states[0]).toMatchObject({ status: 'done', changed: COUNT, error: null });
      const all = await probes();
      expect(all.every((p) => p.double === p.n * 2)).toBe(true);
    },
    WALKS_MS,
  );

  it(
    'changes nothing on a second run, nor when run again from scratch',
    async () => {
      const again = await runMigrations([doubling], { budgetMs: 60_000 });
      expect(again.states[0]).toMatchObject({ status: 'done', changed: COUNT });
      const fresh: DataMigration = { ...doubling, id: '0002-probe-double-again' };
      const rerun = await runMigrations([fresh], { budgetMs: 60_000 });
      expect(rerun.states[0]).toMatchObject({ status: 'done', changed: 0 });
    },
    WALKS_MS,
  );

  it(
    'leaves a paused migration, and the ones after it, until it is resumed',
    async () => {
      const held: DataMigration = { ...doubling, id: '0003-held' };
      const later: DataMigration = { ...doubling, id: '0004-later' };
      await setPaused(held, true);
      const paused = await runMigrations([held, later], { budgetMs: 60_000 });
      expect(paused.complete).toBe(false);
      expect(paused.states.map((s) => s.status)).toEqual(['paused', 'pending']);
      await setPaused(held, false);
      const resumed = await runMigrations([held, later], { budgetMs: 60_000 });
      expect(resumed.states.map((s) => s.status)).toEqual(['done', 'done']);
      expect((await migrationStates([held])).at(0)?.scanned).toBeGreaterThanOrEqual(COUNT);
    },
    WALKS_MS,
  );

  it(
    "runs one order in two runners: each waits on the other's earlier steps, and on none that come after",
    async () => {
      // Runner a holds 0008 and 0010, runner b 0009 (as the general and grievance migrations functions).
      const [a1, b2, a3] = ['0008-a-first', '0009-b-second', '0010-a-third'].map((id) => ({ ...doubling, id }));
      const a = [a1, { id: b2.id, runBy: 'b' }, a3];
      const b = [{ id: a1.id, runBy: 'a' }, b2, { id: a3.id, runBy: 'a' }];
      const statuses = (r: Awaited<ReturnType<typeof runMigrations>>) => r.states.map((st) => st.status);
      // b's first step waits on a's.
      expect(statuses(await runMigrations(b, { budgetMs: 60_000 }))).toEqual(['pending', 'pending', 'pending']);
      // a runs its first, then waits on b's, so its later one does not run before it.
      expect(statuses(await runMigrations(a, { budgetMs: WHOLE_WALK_MS }))).toEqual(['done', 'pending', 'pending']);
      const bRun = await runMigrations(b, { budgetMs: WHOLE_WALK_MS });
      expect(statuses(bRun)).toEqual(['done', 'done', 'pending']);
      expect(bRun.complete).toBe(false);
      const aRun = await runMigrations(a, { budgetMs: WHOLE_WALK_MS });
      expect(statuses(aRun)).toEqual(['done', 'done', 'done']);
      expect(aRun.complete).toBe(true);
      // A step run elsewhere is reported with the description its own runner recorded.
      expect(aRun.states[1].description).toBe(doubling.description);
    },
    WALKS_MS,
  );

  /** A migration of every probe whose `migrate` throws `error` for the first `times` calls of the walk. */
  const refusing = (id: string, error: () => Error, times: number): DataMigration => {
    let calls = 0;
    return { ...doubling, id, migrate: (i) => (calls++ < times ? Promise.reject(error()) : doubling.migrate(i)) };
  };
  /** What the SDK throws when the table does not answer within the client's bound. */
  const timeout = () => Object.assign(new Error('Request timed out'), { name: 'TimeoutError' });

  it(
    'walks a page the table refused for a moment again, and fails only on a bug',
    async () => {
      const refused = await runMigrations([refusing('0005-refused-twice', timeout, 2)], { budgetMs: WHOLE_WALK_MS });
      expect(refused.states[0]).toMatchObject({ status: 'done', error: null });
      expect(refused.states[0].scanned).toBeGreaterThanOrEqual(COUNT);

      const bug = await runMigrations([refusing('0006-bug', () => new Error('a bug'), 1)], { budgetMs: 60_000 });
      expect(bug.states[0]).toMatchObject({ status: 'failed', error: 'a bug' });
    },
    WALKS_MS,
  );

  it(
    'leaves a migration the table keeps refusing to the next run, unfailed',
    async () => {
      const stuck = refusing('0007-refused-long', timeout, Number.POSITIVE_INFINITY);
      const first = await runMigrations([stuck], { budgetMs: 2_000 });
      expect(first.states[0]).toMatchObject({ status: 'running', error: null, scanned: 0 });
      // The lease was given back: the next run takes the migration at once and completes it.
      const next = await runMigrations([{ ...doubling, id: stuck.id }], { budgetMs: WHOLE_WALK_MS });
      expect(next.states[0]).toMatchObject({ status: 'done', error: null });
    },
    WALKS_MS,
  );
});
