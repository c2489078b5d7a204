import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.ts';
import { getItem, isConditionFailure, retryOnConflict, transact, write } from '../db/table.ts';
import { isDependencyUnavailable } from '../db/unavailable.ts';
import { logger } from '../observability/logger.ts';
import { Migration, type MigrationStateItem, type MigrationStatus } from './entities.ts';
import { type DataMigration, type MigrationStep, runsHere } from './migration.ts';

/**
 * Runs the migrations of stored items (migration.ts) in order, like GitLab's batched background
 * migrations: each walks the table in bounded pages (a Scan of at most PAGE_SIZE items, filtered to its
 * entities), records its position and counts in the table after every page, and stops when its time
 * budget is spent; the next run resumes where it stopped. A lease keeps two runners (the deploy hook
 * and the schedule, two `npm start`s) off the same migration. A paused or failing migration holds the
 * ones after it, which may depend on it. A page the table refuses for a moment (a timeout, throttling,
 * a 5xx: shared/db/unavailable.ts) is walked again after a backoff, and at the end of the budget left for
 * the next run: only a bug fails a migration. Scans are for this background walk only: no request path
 * scans (docs/data-model.md).
 */
const PAGE_SIZE = 100;
/** How long a runner holds a migration past its own budget before another may take it over. */
const LEASE_GRACE_MS = 60_000;
/** The first wait before a refused page is walked again; it doubles up to the last. */
const BACKOFF_FIRST_MS = 500;
const BACKOFF_LAST_MS = 15_000;

export interface RunOptions {
  /** Stop taking new pages after this long (a Lambda's remaining time, less a margin). */
  budgetMs: number;
  /** For tests: stop after this many pages in all (an interrupted run). */
  maxPages?: number;
  /** Stop after the current page (the local runtime stopping): the next run resumes there. */
  signal?: AbortSignal;
}

export interface MigrationState {
  id: string;
  description: string;
  status: MigrationStatus;
  scanned: number;
  changed: number;
  startedAt: string | null;
  updatedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

/** Every migration of this release with its recorded state (pending when never started). */
export async function migrationStates(migrations: readonly MigrationStep[]): Promise<MigrationState[]> {
  const stored = new Map((await Migration.queryAll({ key: {}, consistent: true })).map((s) => [s.id, s]));
  return migrations.map((m) => {
    const s = stored.get(m.id);
    return {
      id: m.id,
      description: runsHere(m) ? m.description : (s?.description ?? `run by the ${m.runBy} function`),
      status: s ? (s.paused && s.status !== 'done' ? 'paused' : s.status) : 'pending',
      scanned: s?.scanned ?? 0,
      changed: s?.changed ?? 0,
      startedAt: s?.startedAt ?? null,
      updatedAt: s?.updatedAt ?? null,
      finishedAt: s?.finishedAt ?? null,
      error: s?.error ?? null,
    };
  });
}

/** Pauses or resumes one migration (an operator's call; the runner reads it before every page). */
export async function setPaused(migration: DataMigration, paused: boolean): Promise<void> {
  const now = new Date().toISOString();
  await write(
    Migration.update(
      { id: migration.id },
      {
        UpdateExpression:
          'SET paused = :paused, updatedAt = :now, description = :d, scanned = if_not_exists(scanned, :zero), ' +
          'changed = if_not_exists(changed, :zero), #status = if_not_exists(#status, :pending), id = :id, #entity = :entity',
        ExpressionAttributeNames: { '#status': 'status', '#entity': 'entity' },
        ExpressionAttributeValues: {
          ':entity': Migration.name,
          ':paused': paused,
          ':now': now,
          ':d': migration.description,
          ':zero': 0,
          ':pending': 'pending',
          ':id': migration.id,
        },
      },
    ),
    { returnValues: 'NONE' },
  );
  logger.info(paused ? 'migration paused' : 'migration resumed', { migration: migration.id });
}

/**
 * Runs what is left of `migrations` within the budget. Answers the states after the run; `complete`
 * says whether every migration is done. A step another function runs (migration.ts) holds the ones
 * after it until it is done, like a paused one: the next run looks again.
 */
export async function runMigrations(
  migrations: readonly MigrationStep[],
  { budgetMs, maxPages = Number.POSITIVE_INFINITY, signal }: RunOptions,
): Promise<{ complete: boolean; states: MigrationState[] }> {
  const owner = randomUUID();
  const deadline = Date.now() + budgetMs;
  let pages = 0;
  for (const m of migrations) {
    if (signal?.aborted) break;
    if (!runsHere(m)) {
      if ((await Migration.get({ id: m.id }, { consistent: true }))?.status === 'done') continue;
      logger.info('migration not run', { migration: m.id, reason: 'waiting', runBy: m.runBy });
      break;
    }
    const lease = await takeLease(m, owner, deadline);
    if (lease === 'done') continue;
    if (lease !== 'taken') {
      logger.info('migration not run', { migration: m.id, reason: lease });
      break;
    }
    let state = (await Migration.get({ id: m.id }, { consistent: true }))!;
    let refusals = 0;
    try {
      while (Date.now() < deadline && pages < maxPages && !signal?.aborted) {
        let page: Awaited<ReturnType<typeof walkPage>>;
        try {
          page = await walkPage(m, state.cursor ?? undefined);
          refusals = 0;
        } catch (error) {
          if (!isDependencyUnavailable(error)) throw error;
          // The items walked before the refusal are walked again: each migration is idempotent.
          const wait = Math.min(BACKOFF_FIRST_MS * 2 ** refusals++, BACKOFF_LAST_MS);
          logger.warn('migration page refused, walked again', { migration: m.id, waitMs: wait, error: error as Error });
          if (Date.now() + wait >= deadline) break;
          await new Promise((r) => setTimeout(r, wait));
          continue;
        }
        pages++;
        const last = !page.cursor;
        state = await recordPage(m, owner, { ...page, done: last });
        if (last) {
          logger.info('migration done', { migration: m.id, scanned: state.scanned, changed: state.changed });
          break;
        }
        if (state.paused) break;
      }
    } catch (error) {
      if (isDependencyUnavailable(error)) {
        // Recording the page was refused: the lease runs out by itself, and the next run resumes here.
        logger.warn('migration stopped for now: the table refused it', { migration: m.id, error: error as Error });
        break;
      }
      logger.error('migration failed', { migration: m.id, error: error as Error });
      await recordFailure(m, owner, error as Error);
      break;
    }
    if (state.status !== 'done') {
      // Out of budget or paused: the next run (any runner) resumes here, without waiting for the lease.
      await releaseLease(m, owner);
      break;
    }
  }
  const states = await migrationStates(migrations);
  return { complete: states.every((s) => s.status === 'done'), states };
}

/** One page of the walk from `cursor`: its items brought to their current form, and where the next starts. */
async function walkPage(m: DataMigration, cursor: Record<string, unknown> | undefined) {
  const page = await db().send(
    new ScanCommand({
      TableName: tableName(),
      Limit: m.pageSize ?? PAGE_SIZE,
      ExclusiveStartKey: cursor,
      ConsistentRead: true,
      ...(m.entities.length ? entityFilter(m.entities) : {}),
    }),
  );
  let changed = 0;
  for (const item of page.Items ?? []) changed += await migrateItem(m, item);
  return { cursor: page.LastEvaluatedKey ?? null, scanned: page.ScannedCount ?? 0, changed };
}

/**
 * Brings one item to the current form: its writes, then the migration asked again with the item read
 * again (a migration may need several transactions for one item), until it answers none. A request that
 * changed the item meanwhile makes its writes' conditions fail: the item is read again and retried.
 */
async function migrateItem(m: DataMigration, read: Record<string, unknown>): Promise<number> {
  let item: Record<string, unknown> | undefined = read;
  let changed = 0;
  const stillOld = () =>
    new Error(`migration ${m.id}: the item ${item?.pk}/${item?.sk} is still not in its current form`);
  const readAgain = (it: Record<string, unknown>) => getItem({ pk: it.pk as string, sk: it.sk as string }, true);
  await retryOnConflict(
    async (attempt) => {
      if (attempt > 1 && item) item = await readAgain(item);
      for (let steps = 0; item; steps++) {
        const writes = await m.migrate(item);
        if (writes.length === 0) return;
        if (steps >= MAX_STEPS_PER_ITEM) throw stillOld();
        await transact(writes);
        changed++;
        item = await readAgain(item);
      }
    },
    { attempts: MAX_STEPS_PER_ITEM, exhausted: stillOld },
  );
  return changed ? 1 : 0;
}

/** Transactions one item may need to reach its current form, and attempts when requests keep changing it. */
const MAX_STEPS_PER_ITEM = 10;

const entityFilter = (entities: string[]) => {
  const names: Record<string, string> = { '#entity': 'entity' };
  const values: Record<string, string> = {};
  const terms = entities.map((e, i) => {
    if (e === '') return 'attribute_not_exists(#entity)';
    values[`:e${i}`] = e;
    return `#entity = :e${i}`;
  });
  return {
    FilterExpression: terms.join(' OR '),
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
};

/** Takes the migration for this run, unless it is done, paused, or another runner holds it. */
async function takeLease(
  m: DataMigration,
  owner: string,
  deadline: number,
): Promise<'taken' | 'done' | 'paused' | 'held'> {
  const now = new Date();
  try {
    const after = await write(
      Migration.update(
        { id: m.id },
        {
          UpdateExpression:
            'SET leaseOwner = :owner, leaseUntil = :until, updatedAt = :now, description = :d, id = :id, #entity = :entity, ' +
            'startedAt = if_not_exists(startedAt, :now), scanned = if_not_exists(scanned, :zero), ' +
            'changed = if_not_exists(changed, :zero), #status = :running',
          ConditionExpression:
            '(attribute_not_exists(#status) OR #status <> :done) AND (attribute_not_exists(paused) OR paused = :false) ' +
            'AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now OR attribute_type(leaseUntil, :null))',
          ExpressionAttributeNames: { '#status': 'status', '#entity': 'entity' },
          ExpressionAttributeValues: {
            ':entity': Migration.name,
            ':owner': owner,
            ':until': new Date(deadline + LEASE_GRACE_MS).toISOString(),
            ':now': now.toISOString(),
            ':d': m.description,
            ':id': m.id,
            ':zero': 0,
            ':running': 'running',
            ':done': 'done',
            ':false': false,
            ':null': 'NULL',
          },
        },
      ),
    );
    if (after?.scanned === 0 && !after.cursor) logger.info('migration started', { migration: m.id });
    return 'taken';
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const s = await Migration.get({ id: m.id }, { consistent: true });
    if (s?.status === 'done') return 'done';
    return s?.paused ? 'paused' : 'held';
  }
}

/** Records a finished page: its position and counts, under the lease (a runner that lost it stops). */
async function recordPage(
  m: DataMigration,
  owner: string,
  page: { cursor: Record<string, unknown> | null; scanned: number; changed: number; done: boolean },
): Promise<MigrationStateItem> {
  const now = new Date().toISOString();
  const attrs = await write(
    Migration.update(
      { id: m.id },
      {
        UpdateExpression:
          'SET #cursor = :cursor, updatedAt = :now, #status = :status, finishedAt = :finished, #error = :noError ' +
          (page.done ? ', leaseOwner = :null, leaseUntil = :null ' : '') +
          'ADD scanned :scanned, changed :changed',
        ConditionExpression: 'leaseOwner = :owner',
        ExpressionAttributeNames: { '#cursor': 'cursor', '#status': 'status', '#error': 'error' },
        ExpressionAttributeValues: {
          ':cursor': page.cursor,
          ':now': now,
          ':status': page.done ? 'done' : 'running',
          ':finished': page.done ? now : null,
          ':noError': null,
          ':scanned': page.scanned,
          ':changed': page.changed,
          ':owner': owner,
          ...(page.done ? { ':null': null } : {}),
        },
      },
    ),
  );
  if (!Migration.is(attrs)) throw new Error(`migration ${m.id}: its state vanished`);
  return attrs;
}

async function releaseLease(m: DataMigration, owner: string): Promise<void> {
  try {
    await write(
      Migration.update(
        { id: m.id },
        {
          UpdateExpression: 'SET leaseOwner = :null, leaseUntil = :null',
          ConditionExpression: 'leaseOwner = :owner',
          ExpressionAttributeValues: { ':null': null, ':owner': owner },
        },
      ),
      { returnValues: 'NONE' },
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err; // already taken over: nothing of ours to release
  }
}

async function recordFailure(m: DataMigration, owner: string, error: Error): Promise<void> {
  try {
    await write(
      Migration.update(
        { id: m.id },
        {
          UpdateExpression:
            'SET #status = :failed, #error = :error, updatedAt = :now, leaseOwner = :null, leaseUntil = :null',
          ConditionExpression: 'leaseOwner = :owner',
          ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
          ExpressionAttributeValues: {
            ':failed': 'failed',
            ':error': error.message.slice(0, 1000),
            ':now': new Date().toISOString(),
            ':null': null,
            ':owner': owner,
          },
        },
      ),
      { returnValues: 'NONE' },
    );
  } catch (err) {
    // The failure is already logged above; a lost lease means another runner has the migration now.
    if (!isConditionFailure(err)) throw err;
  }
}

/**
 * One run of a migrations schedule (functions/schedules/run-*migrations.ts): what is left of its steps
 * until 30 s before the invocation's timeout; the next run resumes where this one stopped. A failed
 * migration of its own fails the run, so the background-failure alarm reaches the operators; one it
 * waits on fails the runs of the function that runs it, not these.
 */
export async function runScheduledMigrations(steps: readonly MigrationStep[], remainingMs: number): Promise<void> {
  const { complete, states } = await runMigrations(steps, { budgetMs: Math.max(5_000, remainingMs - 30_000) });
  if (!complete) logger.info('migrations pending', { states });
  const own = new Set(steps.filter(runsHere).map((m) => m.id));
  const failed = states.filter((s) => s.status === 'failed' && own.has(s.id));
  if (failed.length) throw new Error(`migrations failed: ${failed.map((s) => `${s.id} (${s.error})`).join('; ')}`);
}
