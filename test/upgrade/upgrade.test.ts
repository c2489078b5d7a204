import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWriteItemCommand, DeleteItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import { freePort, startLocalRuntime } from '../../infra/local/runtime.ts';
import { runDataRightsWork } from '../../shared/data-rights/work.ts';
import { setDbClient } from '../../shared/db/client.ts';
import { declarations } from '../../shared/db/entity.ts';
import { newSortableId } from '../../shared/db/ids.ts';
import { Grievance } from '../../shared/grievances/entities.ts';
import { hasHandling } from '../../shared/grievances/handling.ts';
import { statsFields } from '../../shared/grievances/stats-fields.ts';
import { totalField } from '../../shared/grievances/totals.ts';
import { isFinished } from '../../shared/grievances/vocabulary.ts';
import { migrationStates, runMigrations } from '../../shared/migrations/runner.ts';
import { storedFormWrites } from '../../shared/migrations/stored-form.ts';
import { avatarObjectPrefixes, avatarOwnerTag } from '../../shared/people/avatar-tag.ts';
import { legacyAvatarOwnerTag } from '../../shared/people/avatars.ts';
import { legacyForms, migrations } from '../../shared/registry/migrations.ts';
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
  // A person whose avatar was uploaded by 0.2.0: its key starts with the unkeyed tag of the id.
  const legacy = legacyAvatarOf(fixture);

  let stopDynamo: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    // A DynamoDB Local of its own: the migrations write thousands of items, and the suite's emulator
    // answers every write to a table created late in the run by reading all the stream records written
    // before that table's first (DynamoDB Local's stream tables have no index by stream), in the one
    // thread that answers everyone. Alone, the fixture's migrations take seconds, not minutes.
    const dynamo = await startDynamoDbLocal(null, await freePort());
    stopDynamo = dynamo.stop;
    setDbClient(undefined);
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
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
    await s3.send(
      new PutObjectCommand({
        Bucket: table,
        Key: `avatars/${legacy.key}`,
        Body: legacy.bytes,
        ContentType: 'image/webp',
      }),
    );
    const port = await freePort();
    const runtime = await startLocalRuntime({ port, dataDir, withSchedules: false, log: appendToRuntimeLog });
    stop = runtime.stop;
    base = runtime.baseUrl;
    // The runtime brings the table up to date by itself, in the background (infra/local/runtime.ts).
    // Its budget is 30 minutes; the wait is long for a loaded two-core machine and ends early on a failure.
    const until = Date.now() + 600_000;
    const settled = () => states.every((s) => s.status === 'done') || states.some((s) => s.status === 'failed');
    do {
      await new Promise((r) => setTimeout(r, 500));
      // A read the loaded emulator does not answer within the client's bound is asked again.
      states = await migrationStates(migrations).catch(() => states);
    } while ((!states?.length || !settled()) && Date.now() < until);
  }, 660_000);

  afterAll(async () => {
    await stop?.();
    await stopDynamo?.();
    setDbClient(undefined);
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

  it('lists a long meeting and a far-ahead leave request stored before the upgrade (their indexes backfilled)', async () => {
    const { meetingId, leaveId, leaveEmployeeId } = oldFormWindowItems(fixture);
    const admin = fixture.sessions.admin.token;
    // The meeting started two days ago and ends in two: in today's default window only through the
    // long-meeting index, which 0.1.0 did not write (the listing reads it once its backfill is done).
    const meetings = await get('/meetings', admin);
    expect(meetings.status).toBe(200);
    expect(meetings.body.map((m: { id: string }) => m.id)).toContain(meetingId);
    // The request was made two years ago for a leave ending next week: only on the ahead index.
    const leave = await get(`/leave/requests?scope=history&employeeId=${leaveEmployeeId}`, admin);
    expect(leave.status).toBe(200);
    expect(leave.body.map((r: { id: string }) => r.id)).toContain(leaveId);
    const stored = (await scanTable()).filter((i) => i.id === meetingId || i.id === leaveId);
    expect(stored.map((i) => [i.entity, typeof i.gsi6sk, typeof i.gsi7sk]).sort()).toEqual([
      ['LeaveRequest', 'number', 'number'],
      ['Meeting', 'number', 'number'],
    ]);
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

  it('gives every person stored before the upgrade a directory row and terms, lists them through them, and leaves no shard', async () => {
    const items = await scanTable();
    expect(items.filter((i) => i.entity === 'DirectoryShard' || i.entity === 'DirectoryShardPosts')).toEqual([]);
    const rows = new Map(items.filter((i) => i.entity === 'DirectoryPerson').map((r) => [r.id, r]));
    const people = items.filter((i) => i.entity === 'User');
    expect(people.length).toBeGreaterThan(1);
    expect(people.filter((u) => !rows.has(u.id)).map((u) => u.id)).toEqual([]);
    const termsOf = (id: string) => items.filter((i) => i.entity === 'DirectoryTerm' && i.userId === id);
    const listed = people.filter((u) => u.status !== 'deactivated');
    expect(listed.filter((u) => termsOf(u.id).length === 0).map((u) => u.id)).toEqual([]);
    expect(people.filter((u) => u.status === 'deactivated').flatMap((u) => termsOf(u.id))).toEqual([]);
    // Each listed person is found by their name (a trigram walk) and by their title when they have one.
    const admin = fixture.sessions.admin.token;
    for (const u of listed.slice(0, 10)) {
      const byName = await get(`/people?q=${encodeURIComponent(u.name)}&limit=50`, admin);
      expect(byName.status).toBe(200);
      expect(
        byName.body.items.map((e: { id: string }) => e.id),
        u.name,
      ).toContain(u.id);
      if (u.title) {
        const byTitle = await get(`/people?role=${encodeURIComponent(u.title)}&limit=50`, admin);
        expect(
          byTitle.body.items.map((e: { id: string }) => e.id),
          u.title,
        ).toContain(u.id);
      }
    }
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
    // Every migration walks the whole table again, each on its own lease and state: the walks run side
    // by side (a walk waits on the emulator's answers, not on the other walks), the checks are the same.
    const runs = await Promise.all(migrations.map((m) => runMigrations([m], { budgetMs: 600_000 })));
    expect(runs.map(({ states: [s] }) => [s.id, s.status, s.changed, s.error ?? null])).toEqual(
      migrations.map((m) => [m.id, 'done', 0, null]),
    );
  }, 660_000);

  it('serves an avatar stored under the unkeyed tag from its keyed key, and erases every form of it', async () => {
    const admin = fixture.sessions.admin.token;
    // The migration moved the profile to the keyed key (same unique part), and the bytes with it.
    const profile = await get(`/people/${legacy.userId}`, admin);
    expect(profile.status).toBe(200);
    const keyedKey = `${avatarOwnerTag(legacy.userId)}_${legacy.unique}.webp`;
    expect(profile.body.image).toBe(`/api/v1/files/avatars/${keyedKey}`);
    expect(profile.body.image).not.toContain(legacyAvatarOwnerTag(legacy.userId));
    for (const path of [profile.body.image, `/api/v1/files/avatars/${legacy.key}`]) {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${admin}` } });
      expect(res.status, path).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(legacy.bytes), path).toBe(true);
    }
    // Their erasure removes the avatar in every form: the keyed copy, the unkeyed original, the 0.1.0 one.
    const send = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };
    // A deactivation clears the person's directory terms in the request: on a loaded machine it may pass
    // its deadline and answer 503 with Retry-After, which a client retries (the change is idempotent).
    let deactivated = await send('PATCH', `/admin/members/${legacy.userId}/status`, { status: 'deactivated' });
    for (let i = 0; i < 3 && deactivated.status === 503; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      deactivated = await send('PATCH', `/admin/members/${legacy.userId}/status`, { status: 'deactivated' });
    }
    expect(deactivated.status).toBe(200);
    const erasing = await send('DELETE', `/admin/members/${legacy.userId}`);
    expect(erasing.status).toBe(200);
    const settle = process.env.DATA_RIGHTS_SETTLE_SECONDS;
    process.env.DATA_RIGHTS_SETTLE_SECONDS = '3';
    try {
      const until = Date.now() + 150_000;
      const done = async () => (await get(`/admin/erasures/${erasing.body.id}`, admin)).body?.status === 'done';
      while (!(await done()) && Date.now() < until) {
        await runDataRightsWork({ only: [erasing.body.id] });
        if (!(await done())) await new Promise((r) => setTimeout(r, 1000));
      }
      expect(await done()).toBe(true);
    } finally {
      if (settle === undefined) delete process.env.DATA_RIGHTS_SETTLE_SECONDS;
      else process.env.DATA_RIGHTS_SETTLE_SECONDS = settle;
    }
    const s3 = new S3Client({ region: process.env.AWS_REGION, forcePathStyle: true });
    for (const prefix of avatarObjectPrefixes(legacy.userId)) {
      const left = await s3.send(new ListObjectsV2Command({ Bucket: table, Prefix: prefix }));
      expect(left.Contents ?? [], prefix).toEqual([]);
    }
    for (const path of [`/api/v1/files/avatars/${keyedKey}`, `/api/v1/files/avatars/${legacy.key}`]) {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${admin}` } });
      expect(res.status, path).toBe(404);
    }
  }, 240_000);

  it('gives up its port as soon as it starts stopping, before it waits on anything', async () => {
    // A next `npm start` on the same port must not find this one still answering while it stops
    // (the conformance runner starts one right after another; infra/local/runtime.ts).
    const stopping = stop();
    stop = async () => {};
    await expect(fetch(`${base}/api/v1/health`)).rejects.toThrow();
    await stopping;
  }, 60_000);
});

/**
 * The avatar 0.2.0 would have stored for a member of the fixture (neither of its two sessions' people):
 * a key under the unkeyed tag of their id, which `load` puts on their profile.
 */
function legacyAvatarOf(fixture: UpgradeFixture) {
  const sessions = Object.values(fixture.sessions).map((x) => x.email);
  const person = fixture.table.find(
    (i) => i.entity?.S === 'User' && i.role?.S === 'member' && !sessions.includes(String(i.email?.S)),
  )!;
  const userId = person.id.S!;
  const unique = '01m8a00000legacyavatar';
  return { userId, unique, key: `${legacyAvatarOwnerTag(userId)}_${unique}.webp`, bytes: Buffer.from('0.2.0 avatar') };
}

/**
 * Items 0.1.0 stored that the time windows of 0.4.0 find only through the indexes it added (and its
 * migrations backfill): one of the fixture's meetings made a long one under way now (two days ago to in
 * two days, with its seats), and one of its leave requests made two years ago for a leave ending next
 * week. Both in 0.1.0's form: the index attributes that release wrote, nothing more.
 */
const windowItems = new WeakMap<UpgradeFixture, ReturnType<typeof makeOldFormWindowItems>>();
function oldFormWindowItems(fixture: UpgradeFixture) {
  const known = windowItems.get(fixture);
  if (known) return known;
  const made = makeOldFormWindowItems(fixture);
  windowItems.set(fixture, made);
  return made;
}
function makeOldFormWindowItems(fixture: UpgradeFixture) {
  const day = 86_400_000;
  const meeting = fixture.table.find((i) => i.entity?.S === 'Meeting')!;
  const meetingId = meeting.id.S!;
  const start = new Date(Date.now() - 2 * day).toISOString();
  const end = new Date(Date.now() + 2 * day).toISOString();
  const timed = (raw: Record<string, any>): Record<string, any> => ({
    ...raw,
    startUtc: { S: start },
    endUtc: { S: end },
    gsi1sk: { S: `${start}#${meetingId}` },
    gsi2sk: { S: `${end}#${meetingId}` },
    ...(raw.entity.S === 'Meeting'
      ? {
          startsAt: { S: start },
          endsAt: { S: end },
          gsi3sk: { S: `${start}#${meetingId}` },
          gsi4sk: { S: `${end}#${meetingId}` },
        }
      : {}),
  });
  const replace = (raw: Record<string, any>) =>
    raw.pk?.S === `MEETING#${meetingId}` && ['Meeting', 'MeetingSeat'].includes(String(raw.entity?.S))
      ? timed(raw)
      : raw;
  const request = fixture.table.find((i) => i.entity?.S === 'LeaveRequest')!;
  const made = new Date(Date.now() - 730 * day);
  const leaveId = newSortableId(made);
  const ends = new Date(Date.now() + 7 * day).toISOString().slice(0, 10);
  const leave: Record<string, any> = {
    ...request,
    id: { S: leaveId },
    pk: { S: `LEAVE#${leaveId}` },
    createdAt: { S: made.toISOString() },
    fromDate: { S: new Date(Date.now() + 5 * day).toISOString().slice(0, 10) },
    toDate: { S: ends },
    ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`gsi${n}sk`, { S: leaveId }])),
  };
  return {
    replace,
    leave,
    meetingId,
    leaveId,
    leaveEmployeeId: String(request.employeeId.S),
  };
}

/** Loads the fixture's items; the sessions it handed out are extended, as the test checks their form, not their age. */
async function load(client: DynamoDBClient, table: string, fixture: UpgradeFixture): Promise<void> {
  const week = 7 * 86_400_000;
  const legacy = legacyAvatarOf(fixture);
  const windows = oldFormWindowItems(fixture);
  const items = [...fixture.table.map(windows.replace), windows.leave].map((raw) => {
    if (raw.entity?.S === 'User' && raw.id?.S === legacy.userId)
      return { ...raw, image: { S: `/api/v1/files/avatars/${legacy.key}` } };
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
