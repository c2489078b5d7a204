import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startLocalRuntime } from '../../infra/local/runtime.ts';
import { appendToRuntimeLog, divertLogLines } from './runtime-log.ts';

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };

/** Keys of the environment the workers need to reach the same runtime and sign the same cursors. */
const SHARED_ENV = [
  'APP_RUNTIME',
  'DATA_DIR',
  'AWS_REGION',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_ENDPOINT_URL_DYNAMODB',
  'AWS_ENDPOINT_URL_S3',
  'AWS_REQUEST_CHECKSUM_CALCULATION',
  'AWS_RESPONSE_CHECKSUM_VALIDATION',
  'S3_FORCE_PATH_STYLE',
  'TABLE_NAME',
  'BUCKET_NAME',
  'SERVICE_VERSION',
  'COMPANY_TIMEZONE',
  'ALLOWED_ORIGINS',
  'CURSOR_SECRET',
  'GRIEVANCE_SECRET',
  'NOTIFICATION_SECRET',
  'IDEMPOTENCY_SECRET',
  'AVATAR_SECRET',
  'SCIM_TOKEN',
  'OIDC_ISSUER',
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET',
  'OIDC_EMAIL_DOMAINS',
  'LIVE_STREAMS_PER_PERSON',
  'LIVE_REPLICAS',
  'LIVE_STREAM_MIN_SECONDS',
  'LIVE_STREAM_MAX_SECONDS',
];

export default async function setup(project: TestProject) {
  // The runtime's log lines go to the run's log file, not between the test results.
  divertLogLines();
  // test/live/stream.test.ts loads the stream function with 50 connections for each of 4 people; the
  // cap itself is tested against this value (test/live/stream-leases.test.ts).
  process.env.LIVE_STREAMS_PER_PERSON ??= '64';
  // A stream's life compressed from 5–6 minutes, so that test/live/stream-orphans.test.ts sees an
  // orphaned stream end by itself within the run; long enough for every other stream test.
  process.env.LIVE_STREAM_MIN_SECONDS ??= '40';
  process.env.LIVE_STREAM_MAX_SECONDS ??= '50';
  // Single sign-on against the identity provider test/foundation/sso.test.ts starts on this port
  // (infra/local/oidc-idp.ts); until it does, a sign-in at it fails and nothing else notices.
  process.env.OIDC_ISSUER ??= `http://127.0.0.1:${await freePort()}`;
  process.env.OIDC_CLIENT_ID ??= 'workplace-test';
  process.env.OIDC_CLIENT_SECRET ??= randomBytes(24).toString('base64url');
  process.env.OIDC_EMAIL_DOMAINS ??= 'example.com';
  const dataDir = mkdtempSync(join(tmpdir(), 'workplace-test-'));
  const port = await freePort();
  const runtime = await startLocalRuntime({
    port,
    dataDir,
    seedAdmin: ADMIN,
    withSchedules: false,
    log: appendToRuntimeLog,
  });
  project.provide('baseUrl', runtime.baseUrl);
  project.provide('localEnv', Object.fromEntries(SHARED_ENV.map((k) => [k, process.env[k] ?? ''])));
  return async () => {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    localEnv: Record<string, string>;
  }
}
