import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import { freePort, startLocalRuntime } from '../../infra/local/runtime.ts';
import { setDbClient } from '../../shared/db/client.ts';
import type { NotificationContent } from '../../shared/notifications/entities.ts';
import { projectionItems } from '../../shared/people/derived-from-person.ts';
import { blankProfile } from '../../shared/people/users.ts';
import { setS3Client } from '../../shared/storage/client.ts';
import { batchWrite, migrationsDoneItems } from '../bench/support.ts';
import { FIRST_ADMIN, useRuntime } from './api.ts';
import { openedNotifications } from './stored-data.ts';

/**
 * A company of its own for a test file (issue 38): its own DynamoDB Local (in memory) with `people`
 * active members seeded straight into the table through the entity declarations (as
 * test/bench/company.ts does, not through the API), then a whole local runtime on it (routes, stream
 * consumers, no schedules) with a super admin. The seeding happens before the runtime starts, so the
 * stream poller (which starts at the stream's end) does not replay it. The test process's domain
 * modules and environment point at it until `stop`, which puts them back (the suite's shared runtime
 * stays untouched).
 */
export interface SeededCompany {
  baseUrl: string;
  adminToken: string;
  /** The seeded people's ids, in joining order. */
  ids: string[];
  names: Map<string, string>;
  /** A member created through the API (with a session), joining now. */
  member(name: string): Promise<{ id: string; token: string; name: string }>;
  call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Every notification in the table, opened (a Scan: a test may, no request path does). */
  notifications(): Promise<{ recipientId: string; id: string; readAt: string | null; c: NotificationContent }[]>;
  stop(): Promise<void>;
}

export async function seededCompany(
  people: number,
  person: (i: number) => { name?: string; dateOfBirth?: string | null } = () => ({}),
  admin = { email: 'company-admin@example.com', password: 'admin-password-1' },
): Promise<SeededCompany> {
  const before = { ...process.env };
  const dataDir = mkdtempSync(join(tmpdir(), 'workplace-company-'));
  const dynamo = await startDynamoDbLocal(null, await freePort());
  // Only this company's DynamoDB, S3 emulator (the runtime starts one in its data directory: the
  // whole-list documents live in the bucket, and a shared one mixed the suite's roster into the
  // company's) and data directory; the suite's secrets are kept.
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;
  delete process.env.AWS_ENDPOINT_URL_S3;
  process.env.DATA_DIR = dataDir;
  // Its functions' log lines would land between the test results.
  process.env.LOG_LEVEL = 'ERROR';
  setDbClient(undefined);
  setS3Client(undefined);
  const table = process.env.TABLE_NAME ?? 'workplace';
  const raw = new DynamoDBClient({ endpoint: dynamo.endpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
  const { DynamoDBDocumentClient } = await import('@aws-sdk/lib-dynamodb');
  const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  let runtime: Awaited<ReturnType<typeof startLocalRuntime>> | undefined;
  const restore = async () => {
    await runtime?.stop();
    doc.destroy();
    await dynamo.stop();
    rmSync(dataDir, { recursive: true, force: true });
    setDbClient(undefined);
    setS3Client(undefined);
    for (const k of Object.keys(process.env)) if (!(k in before)) delete process.env[k];
    for (const [k, v] of Object.entries(before)) process.env[k] = v;
  };
  try {
    await ensureTable(raw, table);
    const ids = Array.from({ length: people }, () => randomUUID());
    const names = new Map<string, string>();
    const users = ids.map((id, i) => {
      const extra = person(i);
      const name = extra.name ?? `Person ${i} ${id.slice(0, 4)}`;
      names.set(id, name);
      return {
        pk: '',
        sk: '',
        entity: 'User',
        ...blankProfile(),
        id,
        email: `seeded-${i}-${id.slice(0, 8)}@example.com`,
        name,
        role: 'member',
        status: 'active',
        dateOfBirth: extra.dateOfBirth ?? null,
        joinedAt: new Date(Date.UTC(2015, 0, 1) + i * 60_000).toISOString(),
      } as any;
    });
    // Seeded in the current form (rows and terms included), so this release's migrations are recorded
    // done, as the bench's company does: the runtime does not walk the seeded people at start.
    await batchWrite(doc, table, [...projectionItems(users), ...(await migrationsDoneItems(new Date().toISOString()))]);
    runtime = await startLocalRuntime({
      port: await freePort(),
      dataDir,
      seedAdmin: admin,
      withSchedules: false,
      log: () => undefined,
    });
    const baseUrl = runtime.baseUrl;
    // The runtime runs every pending migration at start, over the whole seeded table: let it finish, so
    // the test measures its own work rather than those scans.
    const { migrations } = await import('../../shared/registry/migrations.ts');
    const { migrationStates } = await import('../../shared/migrations/runner.ts');
    for (let i = 0; i < 600; i++) {
      if ((await migrationStates(migrations)).every((m) => m.status === 'done')) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const call = async (method: string, path: string, token: string, body?: unknown) => {
      const res = await fetch(`${baseUrl}/api/v1${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
    };
    const signIn = async (email: string, password: string) => {
      const res = await fetch(`${baseUrl}/api/v1/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      const token = res.headers.get('set-auth-token');
      if (!token) throw new Error(`sign-in answered ${res.status}`);
      return token;
    };
    const adminToken = await signIn(admin.email, admin.password);
    return {
      baseUrl,
      adminToken,
      ids,
      names,
      call,
      async member(name) {
        const email = `member-${randomUUID().slice(0, 8)}@example.com`;
        const res = await call('POST', '/admin/members', adminToken, { name, email, password: 'test-password-1' });
        if (res.status !== 201) throw new Error(`create member: ${res.status}`);
        return { id: res.body.id as string, name, token: await signIn(email, 'test-password-1') };
      },
      async notifications() {
        return (await openedNotifications(raw, table)).flatMap(({ item, c }) =>
          c ? [{ recipientId: item.recipientId, id: item.id, readAt: item.readAt, c }] : [],
        );
      },
      stop: restore,
    };
  } catch (err) {
    await restore();
    throw err;
  }
}

/**
 * A runtime of its own for a test file whose work walks the whole table (the data-rights jobs): the
 * suite's first admin, and the file's `api()` calls pointed at it, so what the file costs and how long
 * its steps take do not depend on what the rest of the suite stored before it ran (nor does the
 * suite's schedule take its jobs).
 */
export async function runtimeOfItsOwn(): Promise<SeededCompany> {
  const company = await seededCompany(0, undefined, FIRST_ADMIN);
  useRuntime(company.baseUrl);
  return {
    ...company,
    async stop() {
      useRuntime(undefined);
      await company.stop();
    },
  };
}
