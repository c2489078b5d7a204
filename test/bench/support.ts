/**
 * What the benches share. The DynamoDB benches (directory, feed, grievances, company): a client that
 * counts requests and read capacity, the table, bulk seeding, and the environment the domain modules
 * read. The runtime sections (company, live, orphans): their local runtime, and putting the process
 * back as they found it.
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ensureTable } from '../../infra/local/dynamodb.ts';
import { freePort, startLocalRuntime } from '../../infra/local/runtime.ts';
import { setDbClient } from '../../shared/db/client.ts';
import type { Item } from '../../shared/db/table.ts';
import { Team } from '../../shared/people/entities.ts';
import { setS3Client } from '../../shared/storage/client.ts';

/** DynamoDB Local runs with one shared database (sharedDb), so any credentials see the same tables. */
const localClient = (endpoint: string) =>
  new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
  });

/** What a metered client has sent since the last reset: requests, and the read capacity DynamoDB reported. */
export class Meter {
  requests = 0;
  rcu = 0;
  reset() {
    this.requests = 0;
    this.rcu = 0;
  }
}

/** A document client on DynamoDB Local whose every request `meter` counts, asking for its consumed capacity. */
export function meteredClient(endpoint: string, meter: Meter): DynamoDBDocumentClient {
  const raw = localClient(endpoint);
  raw.middlewareStack.add(
    (next) => async (args: any) => {
      meter.requests++;
      args.input.ReturnConsumedCapacity = 'TOTAL';
      const out: any = await next(args);
      const used = out.output?.ConsumedCapacity;
      for (const c of Array.isArray(used) ? used : used ? [used] : []) meter.rcu += c.CapacityUnits ?? 0;
      return out;
    },
    { step: 'initialize', name: 'benchMeter' },
  );
  return DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
}

/** Creates `table` with the application's schema on DynamoDB Local. */
export async function createTable(endpoint: string, table: string): Promise<void> {
  const admin = localClient(endpoint);
  try {
    await ensureTable(admin, table);
  } finally {
    admin.destroy();
  }
}

/** BatchWrite in chunks of 25, a few in flight (DynamoDB Local is slow per request with seven indexes). */
export async function batchWrite(doc: DynamoDBDocumentClient, table: string, items: Item[]) {
  const chunks = Array.from({ length: Math.ceil(items.length / 25) }, (_, i) => items.slice(i * 25, i * 25 + 25));
  const worker = async () => {
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
      let request: any = { [table]: chunk.map((Item) => ({ PutRequest: { Item } })) };
      while (request && Object.keys(request).length)
        request = (await doc.send(new BatchWriteCommand({ RequestItems: request }))).UnprocessedItems;
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
}

/** The items of the bench's teams, one per id: team i is `Team <i>`, made by `bench` at `createdAt`, with `memberCount(i)` people. */
export const benchTeamItems = (ids: string[], createdAt: string, memberCount: (i: number) => number) =>
  ids.map((id, i) =>
    Team.item({
      id,
      name: `Team ${i}`,
      nameLower: `team ${i}`,
      color: 'slate',
      memberCount: memberCount(i),
      createdAt,
      actorId: 'bench',
    }),
  );

/** The region and cursor secret the domain modules need outside a deployment (kept when already set). */
export function benchEnv(): void {
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.CURSOR_SECRET ??= randomBytes(32).toString('base64url');
}

/** A random integer in [0, n). */
export const rnd = (n: number) => randomBytes(4).readUInt32BE() % n;

/**
 * A section that starts a local runtime leaves the process as it found it: the runtime points the
 * environment at its own emulators (`AWS_ENDPOINT_URL_*`, `TABLE_NAME`, …), which it reuses when they
 * are set, and the domain modules this process loads keep clients of those endpoints. Call at the
 * section's start (it drops any client an earlier section left); the returned function, in its
 * `finally`, puts every variable back and drops the clients, so the next section starts its own
 * emulators rather than reaching stopped ones.
 */
export function isolatedSection(): () => void {
  const before = { ...process.env };
  setDbClient(undefined);
  setS3Client(undefined);
  return () => {
    setDbClient(undefined);
    setS3Client(undefined);
    for (const k of Object.keys(process.env)) if (!(k in before)) delete process.env[k];
    for (const [k, v] of Object.entries(before)) process.env[k] = v;
  };
}

/** A runtime section's whole local runtime on a free port: `admin` seeded, no schedules, its log silenced. */
export async function startSectionRuntime(dataDir: string, admin: { email: string; password: string }) {
  return startLocalRuntime({
    port: await freePort(),
    dataDir,
    seedAdmin: admin,
    withSchedules: false,
    log: () => undefined,
  });
}

/** One JSON call of the API of a runtime section (bearer token when given); the body is undefined when it is not JSON. */
export async function json(baseUrl: string, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => undefined)) as any };
}

/**
 * Every migration of this release recorded as done, for a table the bench seeds straight (its items are
 * this release's forms, written through the declarations; the directory's rows and terms, no shards),
 * as a deployment's first start records them over its empty table: the runtime then neither walks the
 * seeded company at start (which would be measured as the requests' work) nor reads the older forms.
 */
export async function migrationsDoneItems(at: string): Promise<Item[]> {
  const { migrations } = await import('../../shared/registry/migrations.ts');
  const { Migration } = await import('../../shared/migrations/entities.ts');
  return migrations.map((m) =>
    Migration.item({
      id: m.id,
      description: m.description,
      status: 'done',
      scanned: 0,
      changed: 0,
      startedAt: at,
      updatedAt: at,
      finishedAt: at,
    }),
  );
}
