import { inject } from 'vitest';
import { divertLogLines } from './runtime-log.ts';

// The file's runtime (test/support/runtime-pool.ts): its worker slot's, never shared with a file
// running at the same time. Its domain calls use the same DynamoDB, bucket and secrets as its routes.
const slot = process.env.VITEST_POOL_ID ?? '1';
const res = await fetch(`${inject('runtimePool')}/lease/${slot}`, { method: 'POST' });
if (!res.ok) throw new Error(`no test runtime for this file: ${await res.text()}`);
const { baseUrl, env } = (await res.json()) as { baseUrl: string; env: Record<string, string> };
Object.assign(process.env, inject('localEnv'), env, { TEST_BASE_URL: baseUrl });

// Domain code called directly by a test logs too: into the run's log file.
divertLogLines();
