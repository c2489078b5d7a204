/**
 * Live-update figures (issue: live updates): on a whole local runtime (DynamoDB Local, the stream
 * poller, the change-feed consumer, the SSE stream function behind the local gateway),
 * - the time from a write (a recorded notification) to its change frame on an open stream, median
 *   and worst of 100 writes;
 * - the DynamoDB requests one idle stream connection makes per minute;
 * - the cost model of one connected client-hour (Lambda GB-seconds at the stream function's memory,
 *   DynamoDB read request units at on-demand prices).
 * Budgets: median under 1.5 s, worst under 5 s, at most 150 idle requests a minute.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startLocalRuntime } from '../../infra/local/runtime.ts';
import { realtimeStream } from '../../shared/api/routes/realtime.ts';
import { isChange, openSse } from '../support/sse.ts';

const WRITES = 100;
const IDLE_SECONDS = 30;
const BUDGET = { medianMs: 1500, worstMs: 5000, idleRequestsPerMinute: 150 };
// Prices (us-east-1, on-demand): Lambda arm64 per GB-second, DynamoDB per million read request units.
const LAMBDA_ARM_GB_SECOND = 0.0000133334;
const DYNAMODB_PER_MILLION_RRU = 0.125;

async function json(baseUrl: string, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => undefined)) as any };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];

export async function benchLive(): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), 'workplace-bench-live-'));
  process.env.LOG_LEVEL ??= 'ERROR';
  const admin = { email: 'admin@example.com', password: 'admin-password-1' };
  const runtime = await startLocalRuntime({
    port: await freePort(),
    dataDir,
    seedAdmin: admin,
    withSchedules: false,
    log: () => undefined,
  });
  try {
    // Loaded after the runtime set the environment; the same module instances the gateway's handlers use.
    const { db } = await import('../../shared/db/client.ts');
    const { notify } = await import('../../shared/notifications/notifications.ts');
    const adminToken = (await json(runtime.baseUrl, 'POST', '/auth/sign-in/email', admin)).headers.get(
      'set-auth-token',
    )!;
    const email = `bench-${randomUUID().slice(0, 8)}@example.com`;
    const member = (
      await json(
        runtime.baseUrl,
        'POST',
        '/admin/members',
        { name: 'Bench Reader', email, password: 'bench-password-1' },
        adminToken,
      )
    ).body;
    const token = (
      await json(runtime.baseUrl, 'POST', '/auth/sign-in/email', { email, password: 'bench-password-1' })
    ).headers.get('set-auth-token')!;

    // 1. Write → frame latency.
    const stream = await openSse(runtime.baseUrl, token);
    await stream.next((f) => f.event === 'ready');
    const latencies: number[] = [];
    for (let i = 0; i < WRITES; i++) {
      const started = Date.now();
      const [id] = await notify([
        { recipientId: member.id, kind: 'comment', actorId: null, postId: 'bench', preview: `bench ${i}` },
      ]);
      const frame = await stream.next(
        isChange('notification.created', (p) => p.notificationId === id),
        15_000,
      );
      latencies.push(frame.receivedAt - started);
    }
    latencies.sort((a, b) => a - b);
    const median = percentile(latencies, 0.5);
    const worst = latencies[latencies.length - 1];
    console.log(
      `write → frame over ${WRITES} writes: median ${median} ms, p90 ${percentile(latencies, 0.9)} ms, worst ${worst} ms`,
    );

    // 2. Idle requests of that one connection (nothing else runs: the poller reads the stream, not the table).
    let requests = 0;
    const counter = { step: 'initialize' as const, name: 'benchIdleCounter' };
    db().middlewareStack.add(
      (next) => async (args) => {
        requests++;
        return next(args);
      },
      counter,
    );
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    db().middlewareStack.remove('benchIdleCounter');
    stream.close();
    const perMinute = Math.round((requests * 60) / IDLE_SECONDS);
    console.log(`idle stream connection: ${requests} DynamoDB requests in ${IDLE_SECONDS} s = ${perMinute} a minute`);

    // 3. Cost per connected client-hour.
    const memoryGb = (realtimeStream.memory ?? 128) / 1024;
    const gbSeconds = memoryGb * 3600;
    const lambda = gbSeconds * LAMBDA_ARM_GB_SECOND;
    // Every request reads one small item or an empty range: 0.5 RRU eventually consistent; the two session
    // reads with each ping are strongly consistent, 0.5 RRU more each.
    const rru = perMinute * 60 * 0.5 + (3600 / 25) * 2 * 0.5;
    const reads = (rru / 1e6) * DYNAMODB_PER_MILLION_RRU;
    console.log(
      `cost per connected client-hour: Lambda ${gbSeconds.toFixed(0)} GB-s at ${realtimeStream.memory} MB = $${lambda.toFixed(5)}; ` +
        `DynamoDB ≈ ${Math.round(rru)} RRU = $${reads.toFixed(5)}; total $${(lambda + reads).toFixed(5)} (Lambda dominates: an open stream holds an execution)`,
    );
    const ok = median <= BUDGET.medianMs && worst <= BUDGET.worstMs && perMinute <= BUDGET.idleRequestsPerMinute;
    if (!ok)
      console.log(
        `budget: median ≤ ${BUDGET.medianMs} ms, worst ≤ ${BUDGET.worstMs} ms, idle ≤ ${BUDGET.idleRequestsPerMinute} requests a minute`,
      );
    return ok;
  } finally {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
