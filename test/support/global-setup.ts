import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ROOT } from '../../infra/local/runtime.ts';
import { divertLogLines } from './runtime-log.ts';
import { RuntimePool } from './runtime-pool.ts';

/**
 * How many test files one runtime serves before a fresh one replaces it: few enough that its table,
 * stream records and whole-list documents stay small (DynamoDB Local reads stream records linearly,
 * and a document grows with every person), many enough that starting runtimes stays a small share:
 * every function a fresh runtime serves starts cold (at 16, 663 of the first 3,002 requests of a run
 * were cold starts, a third of their time).
 */
const FILES_PER_RUNTIME = Number(process.env.TEST_FILES_PER_RUNTIME) || 40;

export default async function setup(project: TestProject) {
  // The runtimes' log lines go to the run's log file, not between the test results.
  divertLogLines();
  const secret = () => randomBytes(32).toString('base64url');
  // Every runtime of the run gets these, so a file's expectations do not depend on which one it is given.
  const shared: Record<string, string> = {
    // test/live/stream.test.ts loads the stream function with 50 connections for each of 4 people; the
    // cap itself is tested against this value (test/live/stream-leases.test.ts).
    LIVE_STREAMS_PER_PERSON: process.env.LIVE_STREAMS_PER_PERSON ?? '64',
    // A stream's life compressed from 5–6 minutes, so that test/live/stream-orphans.test.ts sees an
    // orphaned stream end by itself within the run; long enough for every other stream test.
    LIVE_STREAM_MIN_SECONDS: process.env.LIVE_STREAM_MIN_SECONDS ?? '40',
    LIVE_STREAM_MAX_SECONDS: process.env.LIVE_STREAM_MAX_SECONDS ?? '50',
    // Single sign-on against the identity provider the SSO tests start at the runtime's OIDC_ISSUER
    // (infra/local/oidc-idp.ts); until one does, a sign-in at it fails and nothing else notices.
    OIDC_CLIENT_ID: process.env.OIDC_CLIENT_ID ?? 'workplace-test',
    OIDC_CLIENT_SECRET: process.env.OIDC_CLIENT_SECRET ?? secret(),
    OIDC_EMAIL_DOMAINS: process.env.OIDC_EMAIL_DOMAINS ?? 'example.com',
    // Password hashing at a sixteenth of its cost (shared/auth/passwords.ts): the run makes and signs
    // in thousands of people; the deployed cost is asserted in shared/auth/passwords.test.ts.
    LOCAL_TEST_SCRYPT_N: '1024',
    CURSOR_SECRET: secret(),
    GRIEVANCE_SECRET: secret(),
    SURVEY_SECRET: secret(),
    NOTIFICATION_SECRET: secret(),
    IDEMPOTENCY_SECRET: secret(),
    AVATAR_SECRET: secret(),
    SCIM_TOKEN: secret(),
  };
  // Each function compiled once for the run, whichever runtime needs it first (infra/local/function-modules.ts):
  // the pool's, and those a file starts of its own (the upgrade test, the seeded companies).
  const compiled = join(ROOT, 'node_modules', '.cache', 'local-functions', `run-${process.pid}`);
  mkdirSync(compiled, { recursive: true });
  shared.LOCAL_FUNCTIONS_SHARED = compiled;
  const pool = new RuntimePool(FILES_PER_RUNTIME, shared);
  project.provide('runtimePool', await pool.listen());
  project.provide('localEnv', shared);
  return async () => {
    await pool.stop();
    rmSync(compiled, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where a test file asks for its runtime (test/support/runtime-pool.ts). */
    runtimePool: string;
    /** What every runtime of the run shares: its secrets and settings. */
    localEnv: Record<string, string>;
  }
}
