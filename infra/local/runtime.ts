import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { schedules, streamConsumers } from '../../shared/api/background.ts';
import { routes } from '../../shared/api/routes/index.ts';
import { INTEGRATION_TIMEOUT_MS, LocalApiGateway } from './api-gateway.ts';
import { ensureTable, startDynamoDbLocal } from './dynamodb.ts';
import { FunctionHost } from './function-host.ts';
import { stageBundles } from './handler-module.ts';
import { ensureBucket, startS3Emulator } from './s3.ts';
import { LocalScheduler } from './scheduler.ts';
import { StreamPoller } from './stream-poller.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface LocalRuntimeOptions {
  port: number;
  dataDir: string;
  log?: (line: string) => void;
  /** Tests turn the background parts off when they do not need them. */
  withStreams?: boolean;
  withSchedules?: boolean;
  seedAdmin?: { email: string; password: string };
  /** Serve the esbuild bundles (dist/functions) instead of the TypeScript sources (see handler-module.ts). */
  bundled?: boolean;
  /** Keep DynamoDB Local's data in memory, not in DATA_DIR (tests: nothing outlives the run). */
  tableInMemory?: boolean;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolvePort(port));
    });
  });
}

/**
 * Secrets the deployed stack keeps in Secrets Manager; locally they are generated on first start and
 * kept in DATA_DIR, so cursors and grievance hashes stay valid across restarts.
 */
const LOCAL_SECRETS = [
  'cursorSecret',
  'grievanceSecret',
  'surveySecret',
  'notificationSecret',
  'idempotencySecret',
  'avatarSecret',
  'scimToken',
] as const;
function loadSecrets(dataDir: string): Record<(typeof LOCAL_SECRETS)[number], string> {
  const file = join(dataDir, 'secrets.json');
  const stored: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  // A DATA_DIR of an earlier release lacks the secrets added since: they are generated and kept.
  const missing = LOCAL_SECRETS.filter((k) => !stored[k]);
  for (const k of missing) stored[k] = randomBytes(32).toString('base64url');
  if (missing.length > 0) writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  return stored as Record<(typeof LOCAL_SECRETS)[number], string>;
}

/** Sets the environment every handler reads, before any handler module is loaded. */
export function prepareEnvironment(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const secrets = loadSecrets(dataDir);
  const defaults: Record<string, string> = {
    APP_RUNTIME: 'local',
    DATA_DIR: dataDir,
    AWS_REGION: 'us-east-1',
    // The local S3's signature gate checks presigned URLs against these (s3-signature-gate.ts);
    // DynamoDB Local (shared database) accepts any.
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    // Emulators do not speak the SDK's newer default checksums.
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    S3_FORCE_PATH_STYLE: 'true',
    TABLE_NAME: 'workplace',
    BUCKET_NAME: 'workplace-media',
    SERVICE_VERSION: pkg.version,
    COMPANY_TIMEZONE: 'UTC',
    ALLOWED_ORIGINS: '*',
    CURSOR_SECRET: secrets.cursorSecret,
    GRIEVANCE_SECRET: secrets.grievanceSecret,
    SURVEY_SECRET: secrets.surveySecret,
    NOTIFICATION_SECRET: secrets.notificationSecret,
    IDEMPOTENCY_SECRET: secrets.idempotencySecret,
    AVATAR_SECRET: secrets.avatarSecret,
    SCIM_TOKEN: secrets.scimToken,
    POWERTOOLS_DEV: 'false',
    POWERTOOLS_METRICS_DISABLED: 'true',
    // Lambda sets it in every on-demand environment; Powertools reports cold starts only with it.
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    // DynamoDB Local takes ~0.1 s a write: fewer head replicas keep the change feed quick. The bench
    // measures the deployed count (32).
    LIVE_REPLICAS: '4',
  };
  for (const [k, v] of Object.entries(defaults)) if (!process.env[k]) process.env[k] = v;
}

/**
 * The whole service offline: DynamoDB Local (or AWS_ENDPOINT_URL_DYNAMODB), the S3 emulator (or
 * AWS_ENDPOINT_URL_S3), the API emulation from the route table, the stream poller and the schedules.
 */
export async function startLocalRuntime(
  opts: LocalRuntimeOptions,
): Promise<{ stop: () => Promise<void>; baseUrl: string; redeploy: () => void }> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const dataDir = resolve(opts.dataDir);
  prepareEnvironment(dataDir);
  const stops: (() => Promise<void> | void)[] = [];

  let dynamoEndpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
  if (dynamoEndpoint) {
    log(`DynamoDB: using ${dynamoEndpoint}`);
  } else {
    const ddbLocal = await startDynamoDbLocal(opts.tableInMemory ? null : join(dataDir, 'dynamodb'), await freePort());
    dynamoEndpoint = ddbLocal.endpoint;
    process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamoEndpoint;
    stops.push(ddbLocal.stop);
    log(
      `DynamoDB Local: ${dynamoEndpoint} (data ${opts.tableInMemory ? 'in memory' : `in ${join(dataDir, 'dynamodb')}`})`,
    );
  }
  let s3Endpoint = process.env.AWS_ENDPOINT_URL_S3;
  if (s3Endpoint) {
    log(`S3: using ${s3Endpoint}`);
  } else {
    const s3Local = await startS3Emulator(join(dataDir, 's3'), await freePort());
    s3Endpoint = s3Local.endpoint;
    process.env.AWS_ENDPOINT_URL_S3 = s3Endpoint;
    stops.push(s3Local.stop);
    log(`S3 emulator: ${s3Endpoint} (objects in ${join(dataDir, 's3')})`);
  }

  const ddb = new DynamoDBClient({ region: process.env.AWS_REGION });
  await ensureTable(ddb, process.env.TABLE_NAME!);
  ddb.destroy();
  const s3 = new S3Client({ region: process.env.AWS_REGION, forcePathStyle: true });
  await ensureBucket(s3, process.env.BUCKET_NAME!);
  s3.destroy();
  log(`table ${process.env.TABLE_NAME} and bucket ${process.env.BUCKET_NAME} ready`);

  // Every start is a restart of the service: a new change-feed epoch, before any stream connects.
  const { startNewEpoch } = await import('../../shared/live/event-log.ts');
  await startNewEpoch();

  if (opts.seedAdmin) {
    const { ensureFirstSuperAdmin } = await import('../../shared/people/bootstrap.ts');
    const { created } = await ensureFirstSuperAdmin(opts.seedAdmin.email, opts.seedAdmin.password);
    if (created) log(`created the first super admin ${opts.seedAdmin.email}`);
  }

  if (opts.bundled) stops.push(await stageBundles(log));
  // Every function in execution environments of its own, its AWS access enforced (docs/deployment.md).
  const timeoutScale = Number(process.env.LOCAL_TIMEOUT_SCALE) || 1;
  const host = new FunctionHost(ROOT, log, {
    enforceAccess: process.env.LOCAL_ENFORCE_ACCESS !== 'false',
    streamsPerEnvironment: Number(process.env.LOCAL_STREAMS_PER_ENVIRONMENT) || undefined,
    timeoutScale,
  });
  const gateway = new LocalApiGateway(routes, host, log, {
    integrationTimeoutMs: INTEGRATION_TIMEOUT_MS * timeoutScale,
  });
  await gateway.listen(opts.port);
  stops.unshift(() => host.stop());
  const baseUrl = `http://127.0.0.1:${opts.port}`;
  log(
    `API: ${baseUrl}/api/v1 (${routes.length} routes; reference at ${baseUrl}/api/v1/docs; outbox at ${baseUrl}/_local/outbox)`,
  );

  // An existing DATA_DIR written by an earlier release is brought up to date while the service already
  // answers (the code reads both forms); deployed, the deploy hook and the migrations schedule do this.
  const migrationsStop = new AbortController();
  const migrating = runMigrationsAtStart(log, migrationsStop.signal);
  // Stopped after its current page and awaited before the emulators go (the next start resumes).
  stops.unshift(async () => {
    migrationsStop.abort();
    await migrating;
  });

  if (opts.withStreams !== false) {
    const poller = new StreamPoller(host, dynamoEndpoint, process.env.TABLE_NAME!, streamConsumers, log);
    await poller.start();
    gateway.settledBy = (timeoutMs) => poller.settled(timeoutMs);
    stops.unshift(() => poller.stop());
    if (streamConsumers.length) log(`stream poller: feeding ${streamConsumers.map((c) => c.name).join(', ')}`);
  }
  if (opts.withSchedules !== false) {
    const scheduler = new LocalScheduler(host, schedules, process.env.COMPANY_TIMEZONE ?? 'UTC', log);
    await scheduler.start();
    stops.unshift(() => scheduler.stop());
    if (schedules.length) log(`schedules: ${schedules.map((s) => s.name).join(', ')}`);
  }

  // The port is given up first: a stop that waits on the poller or a migration page must not leave the
  // port answering for a runtime that is going away (a next start on the same port would fail to bind
  // while a client still reached the old one).
  stops.unshift(() => gateway.close());

  return {
    baseUrl,
    /** New environments for every function, with this process's variables as they are now. */
    redeploy: () => host.redeploy(),
    stop: async () => {
      for (const s of stops) await s();
    },
  };
}

/** Runs every pending migration in this process, logging the outcome (docs/deployment.md). */
async function runMigrationsAtStart(log: (line: string) => void, signal: AbortSignal): Promise<void> {
  try {
    const { migrations } = await import('../../shared/registry/migrations.ts');
    const { runMigrations } = await import('../../shared/migrations/runner.ts');
    const { complete, states } = await runMigrations(migrations, { budgetMs: 30 * 60_000, signal });
    if (signal.aborted) return;
    const changed = states.reduce((n, s) => n + s.changed, 0);
    log(
      complete
        ? `migrations: all ${states.length} done${changed ? ` (${changed} items brought to the current form)` : ''}`
        : `migrations: not complete: ${states.map((s) => `${s.id} ${s.status}${s.error ? ` (${s.error})` : ''}`).join(', ')}`,
    );
  } catch (err) {
    log(`migrations: could not run: ${(err as Error).message}`);
  }
}
