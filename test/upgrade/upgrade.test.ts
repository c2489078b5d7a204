import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWriteItemCommand, DeleteItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startLocalRuntime } from '../../infra/local/runtime.ts';
import { declarations } from '../../shared/db/entity.ts';
import { Grievance } from '../../shared/grievances/entities.ts';
import { hasHandling } from '../../shared/grievances/handling.ts';
import { statsFields } from '../../shared/grievances/stats-fields.ts';
import { totalField } from '../../shared/grievances/totals.ts';
import { isFinished } from '../../shared/grievances/vocabulary.ts';
import { legacyForms, migrations } from '../../shared/migrations/index.ts';
import { migrationStates, runMigrations } from '../../shared/migrations/runner.ts';
import { storedFormWrites } from '../../shared/migrations/stored-form.ts';
import { checkCounters } from '../support/counters.ts';
import { readRoutesWithout5xx } from '../support/read-routes.ts';
import { appendToRuntimeLog } from '../support/runtime-log.ts';
import { scanTable } from '../support/stored-data.ts';
import { type UpgradeFixture, upgradeFixtures } from './fixture.ts';

/**
 * The upgrade test (docs/deployment.md, "Upgrading and rolling back"): what an earlier release stored
 * (test/upgrade/fixtures, made by make-fixture.ts) is loaded into a fresh table and bucket, today's
 * local runtime starts on it and brings it up to date by itself, and then every read route answers
 * without a 5xx, the release's sessions still work, every unfinished grievance has its deadlines,
 * counters and totals are exact, every item has its entity's current form, and the migrations run again
 * from scratch change nothing.
 */
const fixtures = upgradeFixtures();
const saved = { ...process.env };

describe.each(fixtures)('upgrade from $name', ({ fixture }) => {
  const table = `upgrade-${fixture.release.commit.slice(0, 7)}-${randomUUID().slice(0, 8)}`;
  let stop: () => Promise<void>;
  let base = '';
  let dataDir = '';
  let states: Awaited<ReturnType<typeof migrationStates>> = [];
  const ddb = () => new DynamoDBClient({ region: process.env.AWS_REGION });

  beforeAll(async () => {
    Object.assign(process.env, {
      TABLE_NAME: table,
      BUCKET_NAME: table,
      CURSOR_SECRET: fixture.secrets.cursorSecret,
      GRIEVANCE_SECRET: fixture.secrets.grievanceSecret,
    });
    // The runtime creates the table and bucket on the emulators the suite already runs.
    dataDir = mkdtempSync(join(tmpdir(), 'workplace-upgrade-'));
    const { ensureTable } = await import('../../infra/local/dynamodb.ts');
    const client = ddb();
    await ensureTable(client, table);
    await load(client, table, fixture);
    const s3 = new S3Client({ region: process.env.AWS_REGION, forcePathStyle: true });
    const { ensureBucket } = await import('../../infra/local/s3.ts');
    await ensureBucket(s3, table);
    for (const o of fixture.objects)
      await s3.send(new PutObjectCommand({ Bucket: table, Key: o.key, Body: Buffer.alloc(Math.min(o.size, 64)) }));
    const port = await freePort();
    const runtime = await startLocalRuntime({ port, dataDir, withSchedules: false, log: appendToRuntimeLog });
    stop = runtime.stop;
    base = runtime.baseUrl;
    // The runtime brings the table up to date by itself, in the background (infra/local/runtime.ts).
    const until = Date.now() + 150_000;
    states = await migrationStates(migrations);
    while (!states.every((s) => s.status === 'done') && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      states = await migrationStates(migrations);
    }
  }, 300_000);

  afterAll(async () => {
    await stop?.();
    rmSync(dataDir, { recursive: true, force: true });
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  });

  const get = async (path: string, token: string) => {
    const res = await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
    return {
      status: res.status,
      body: (res.headers.get('content-type')?.includes('json') ? await res.json() : null) as any,
    };
  };
  it('brings the stored items up to date by itself when the service starts', async () => {
    expect(states.map((s) => [s.id, s.status])).toEqual(migrations.map((m) => [m.id, 'done']));
    expect(states.reduce((n, s) => n + s.changed, 0)).toBeGreaterThan(0);
  });

  it('leaves every item in its entity current form', async () => {
    const items = await scanTable();
    const stale = items.filter((i) => storedFormWrites(i, legacyForms).length > 0).map((i) => `${i.pk}/${i.sk}`);
    expect(stale).toEqual([]);
    const undeclared = items.filter((i) => !declarations.has(i.entity)).map((i) => `${i.entity} ${i.pk}/${i.sk}`);
    expect(undeclared).toEqual([]);
    // Every notification in the one sealed form, and no queued notice with its grievance in the clear.
    const notifications = items.filter((i) => i.entity === 'Notification');
    expect(notifications.length).toBeGreaterThan(0);
    expect(notifications.filter((n) => n.sealed === undefined || 'kind' in n || 'anon' in n)).toEqual([]);
    expect(items.filter((i) => i.entity === 'GrievanceNotice' && i.sealed === undefined)).toEqual([]);
  });

  it("keeps the release's sessions valid", async () => {
    expect((await get('/users/me/profile', fixture.sessions.member.token)).status).toBe(200);
    expect((await get('/users/me/profile', fixture.sessions.admin.token)).status).toBe(200);
  });

  it('gives every unfinished grievance its deadlines, and exact totals and statistics', async () => {
    const items = await scanTable();
    const grievances = items.filter(Grievance.is);
    expect(grievances.length).toBeGreaterThan(0);
    expect(grievances.every(hasHandling)).toBe(true);
    const unfinished = grievances.filter((g) => !isFinished(g.status)).map((g) => g.id);
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(
        `/admin/grievances/deadlines?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        fixture.sessions.admin.token,
      );
      expect(page.status).toBe(200);
      listed.push(...page.body.items.map((i: { grievance: { id: string } }) => i.grievance.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(listed.sort()).toEqual(unfinished.sort());

    const totals = items.find((i) => i.entity === 'GrievanceTotals')!;
    expect(totals[totalField({})]).toBe(grievances.length);
    for (const g of grievances) {
      expect(totals[totalField({ status: g.status })]).toBe(grievances.filter((x) => x.status === g.status).length);
      expect(totals[totalField({ category: g.category })]).toBe(
        grievances.filter((x) => x.category === g.category).length,
      );
    }
    const stats = items.filter((i) => i.entity === 'GrievanceStats');
    const sum = (field: string) => stats.reduce((n, s) => n + ((s[field] as number | undefined) ?? 0), 0);
    expect(sum(statsFields.raised)).toBe(grievances.length);
    for (const status of ['open', 'in_review', 'resolved', 'closed'] as const)
      expect(sum(statsFields.status(status))).toBe(grievances.filter((g) => g.status === status).length);
  });

  it('keeps every counter equal to what it counts', async () => {
    expect(await checkCounters()).toEqual([]);
  });

  it('answers every read route without a 5xx, with ids taken from the stored items', async () => {
    const { called, failures } = await readRoutesWithout5xx(
      { admin: fixture.sessions.admin.token, member: fixture.sessions.member.token },
      { baseUrl: base, objectKeys: fixture.objects.map((o) => o.key) },
    );
    expect(failures).toEqual([]);
    expect(called).toBeGreaterThan(100);
  }, 400_000);

  it('changes nothing when the migrations run again from scratch', async () => {
    const client = ddb();
    for (const m of migrations)
      await client.send(new DeleteItemCommand({ TableName: table, Key: { pk: { S: 'MIGRATION' }, sk: { S: m.id } } }));
    const { complete, states } = await runMigrations(migrations, { budgetMs: 60_000 });
    expect(complete).toBe(true);
    expect(states.map((s) => [s.id, s.changed])).toEqual(migrations.map((m) => [m.id, 0]));
  }, 120_000);

  it('gives up its port as soon as it starts stopping, before it waits on anything', async () => {
    // A next `npm start` on the same port must not find this one still answering while it stops
    // (the conformance runner starts one right after another; infra/local/runtime.ts).
    const stopping = stop();
    stop = async () => {};
    await expect(fetch(`${base}/api/v1/health`)).rejects.toThrow();
    await stopping;
  }, 60_000);
});

/** Loads the fixture's items; the sessions it handed out are extended, as the test checks their form, not their age. */
async function load(client: DynamoDBClient, table: string, fixture: UpgradeFixture): Promise<void> {
  const week = 7 * 86_400_000;
  const items = fixture.table.map((raw) => {
    if (raw.entity?.S !== 'Session') return raw;
    return {
      ...raw,
      expiresAt: { S: new Date(Date.now() + week).toISOString() },
      ttl: { N: String(Math.floor((Date.now() + week) / 1000)) },
    };
  });
  for (let i = 0; i < items.length; i += 25) {
    let request: Record<string, any> | undefined = {
      [table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })),
    };
    while (request && Object.keys(request).length) {
      const out: { UnprocessedItems?: Record<string, any> } = await client.send(
        new BatchWriteItemCommand({ RequestItems: request }),
      );
      request = out.UnprocessedItems;
    }
  }
}
