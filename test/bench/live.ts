/**
 * Live-update figures (issues: live updates; the live stream at company scale): on a whole local
 * runtime (DynamoDB Local behind the request-counting layer of `read-counter.ts`, the stream poller,
 * the change-feed consumer, the SSE stream function behind the local gateway), with the deployed
 * number of head replicas and process-level read coalescing off (`LIVE_COALESCED_READS=false`), so
 * that every connection reads as its own Lambda execution environment does:
 * - the time from a write (a recorded notification) to its change frame on an open stream, median
 *   and worst of 100 writes;
 * - the DynamoDB requests one idle stream connection makes per minute;
 * - stream scale: 100 connections open, idle and then while a post a second is written; the read
 *   capacity per partition key per second that the connections cause (the same load measured
 *   without connections is subtracted: the consumer's and the posting's own reads), the hottest
 *   key's share per client and the ceiling 3,000 RCU/s / share; every connection must get every post;
 * - the cost model of one connected client-hour (Lambda GB-seconds at the stream function's memory,
 *   the measured DynamoDB reads at on-demand prices).
 * Budgets: median under 1.5 s, worst under 5 s, at most 150 idle requests a minute, hottest-key
 * share at most 0.04 RCU/s per client idle and busy.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import { freePort } from '../../infra/local/runtime.ts';
import { realtimeStreamRoute } from '../../shared/api/routes/realtime.ts';
import { isChange, openSse } from '../support/sse.ts';
import { ReadCounter } from './read-counter.ts';
import { isolatedSection, json, startSectionRuntime } from './support.ts';

const WRITES = 100;
const IDLE_SECONDS = 30;
const BUDGET = { medianMs: 1500, worstMs: 5000, idleRequestsPerMinute: 150, sharePerClient: 0.04 };
const LOCAL_REPLICAS = 4;
const DEPLOYED_REPLICAS = 32;
const SCALE = { members: 20, streamsPerMember: 5, idleSeconds: 30, busySeconds: 30, baselineSeconds: 20 };
/** DynamoDB serves at most this many read units a second from one partition. */
const PARTITION_RCU = 3000;
// Prices (us-east-1, on-demand): Lambda arm64 per GB-second, DynamoDB per million read request units.
const LAMBDA_ARM_GB_SECOND = 0.0000133334;
const DYNAMODB_PER_MILLION_RRU = 0.125;
const DYNAMODB_PER_MILLION_WRU = 0.625;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
type Rates = Map<string, number>;
const ratesOf = (rcu: Map<string, number>, seconds: number): Rates =>
  new Map([...rcu].map(([k, v]) => [k, v / seconds]));
/** What the connections add: the window's rate per key less the same load's rate without them. */
const added = (withStreams: Rates, baseline: Rates): Rates =>
  new Map([...withStreams].map(([k, v]) => [k, Math.max(0, v - (baseline.get(k) ?? 0))]));
const hottest = (rates: Rates): [string, number] =>
  [...rates].reduce<[string, number]>((best, e) => (e[1] > best[1] ? e : best), ['-', 0]);
const total = (rates: Rates) => [...rates.values()].reduce((n, v) => n + v, 0);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];

export async function benchLive(): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), 'workplace-bench-live-'));
  process.env.LOG_LEVEL ??= 'ERROR';
  const admin = { email: 'admin@example.com', password: 'admin-password-1' };
  const dynamo = await startDynamoDbLocal(join(dataDir, 'dynamodb'), await freePort());
  const counter = new ReadCounter(dynamo.endpoint);
  const restore = isolatedSection();
  process.env.AWS_ENDPOINT_URL_DYNAMODB = await counter.listen(await freePort());
  process.env.LIVE_COALESCED_READS = 'false';
  // Write → frame latency is the local runtime's, with its own replica count: DynamoDB Local takes
  // about 0.1 s a write, so 32 replica writes a batch would time the emulator (deployed they run in
  // parallel in a few milliseconds). The scale scenario switches to the deployed count.
  process.env.LIVE_REPLICAS = String(LOCAL_REPLICAS);
  const runtime = await startSectionRuntime(dataDir, admin);
  try {
    // Loaded after the runtime set the environment; the same module instances the gateway's handlers use.
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
    counter.reset();
    await sleep(IDLE_SECONDS * 1000);
    const requests = counter.requests;
    stream.close();
    const perMinute = Math.round((requests * 60) / IDLE_SECONDS);
    console.log(`idle stream connection: ${requests} DynamoDB requests in ${IDLE_SECONDS} s = ${perMinute} a minute`);

    // 3. Stream scale.
    const scale = await streamScale(runtime, adminToken, counter);

    // 4. Cost per connected client-hour: the measured reads of a busy connection; the lease renewal
    // with each ping (144 writes an hour) and one open and close per 15-minute invocation.
    const memoryGb = (realtimeStreamRoute.memory ?? 128) / 1024;
    const gbSeconds = memoryGb * 3600;
    const lambda = gbSeconds * LAMBDA_ARM_GB_SECOND;
    const rru = scale.busyPerClient * 3600;
    const wru = 3600 / 25 + 4 * 2;
    const reads = (rru / 1e6) * DYNAMODB_PER_MILLION_RRU;
    const writes = (wru / 1e6) * DYNAMODB_PER_MILLION_WRU;
    console.log(
      `cost per connected client-hour: Lambda ${gbSeconds.toFixed(0)} GB-s at ${realtimeStreamRoute.memory} MB = $${lambda.toFixed(5)}; ` +
        `DynamoDB reads ${Math.round(rru)} RRU = $${reads.toFixed(5)}, lease writes ${wru} WRU = $${writes.toFixed(5)}; ` +
        `total $${(lambda + reads + writes).toFixed(5)} (Lambda dominates: an open stream holds an execution)`,
    );
    const ok =
      median <= BUDGET.medianMs && worst <= BUDGET.worstMs && perMinute <= BUDGET.idleRequestsPerMinute && scale.ok;
    if (!ok)
      console.log(
        `budget: median ≤ ${BUDGET.medianMs} ms, worst ≤ ${BUDGET.worstMs} ms, idle ≤ ${BUDGET.idleRequestsPerMinute} requests a minute, ` +
          `hottest key ≤ ${BUDGET.sharePerClient} RCU/s per client idle and busy, every post on every connection`,
      );
    return ok;
  } finally {
    await runtime.stop();
    await counter.close();
    await dynamo.stop();
    restore();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Writes a post a second for `seconds` (not waiting for one to finish before the next is due). */
async function postEverySecond(baseUrl: string, token: string, seconds: number): Promise<string[]> {
  const posts: Promise<string>[] = [];
  for (let i = 0; i < seconds; i++) {
    posts.push(json(baseUrl, 'POST', '/posts', { content: `scale bench ${i}` }, token).then((r) => r.body.id));
    await sleep(1000);
  }
  return Promise.all(posts);
}

function report(label: string, raw: Rates, byClients: Rates, connections: number) {
  const [key, rate] = hottest(byClients);
  const share = rate / connections;
  console.log(
    `${label}: connections read ${total(byClients).toFixed(2)} RCU/s in all; hottest key ${key} at ${rate.toFixed(2)} RCU/s ` +
      `= ${share.toFixed(4)} RCU/s per client → ceiling ${share > 0 ? Math.floor(PARTITION_RCU / share).toLocaleString('en-US') : '∞'} clients`,
  );
  const top = [...byClients].sort((a, b) => b[1] - a[1]).slice(0, 6);
  for (const [k, v] of top)
    console.log(
      `    ${k.padEnd(48)} ${v.toFixed(3).padStart(8)} RCU/s from the connections (${(raw.get(k) ?? 0).toFixed(3)} in all)`,
    );
  return share;
}

/**
 * 100 connections (SCALE.members people, SCALE.streamsPerMember each), idle and then with a post a
 * second; the same post load without connections first, as the baseline to subtract.
 */
async function streamScale(
  runtime: { baseUrl: string; redeploy: () => void },
  adminToken: string,
  counter: ReadCounter,
) {
  const { baseUrl } = runtime;
  const tokens: string[] = [];
  for (let i = 0; i < SCALE.members; i++) {
    const email = `scale-${randomUUID().slice(0, 8)}@example.com`;
    await json(
      baseUrl,
      'POST',
      '/admin/members',
      { name: `Scale Reader ${i}`, email, password: 'bench-password-1' },
      adminToken,
    );
    tokens.push(
      (await json(baseUrl, 'POST', '/auth/sign-in/email', { email, password: 'bench-password-1' })).headers.get(
        'set-auth-token',
      )!,
    );
  }
  const connections = SCALE.members * SCALE.streamsPerMember;
  // The deployed replica count from here on: the baseline's posts write every replica before any
  // connection opens.
  process.env.LIVE_REPLICAS = String(DEPLOYED_REPLICAS);
  // Each function's environments hold the variables they started with (as deployed): new ones read it.
  runtime.redeploy();

  counter.reset();
  await sleep(SCALE.baselineSeconds * 1000);
  const idleBaseline = ratesOf(counter.rcu, SCALE.baselineSeconds);
  counter.reset();
  await postEverySecond(baseUrl, adminToken, SCALE.baselineSeconds);
  const busyBaseline = ratesOf(counter.rcu, SCALE.baselineSeconds);

  const streams = await Promise.all(
    Array.from({ length: connections }, (_, i) => openSse(baseUrl, tokens[i % SCALE.members])),
  );
  try {
    await Promise.all(streams.map((s) => s.next((f) => f.event === 'ready', 60_000)));
    await sleep(3000);
    counter.reset();
    await sleep(SCALE.idleSeconds * 1000);
    const idle = ratesOf(counter.rcu, SCALE.idleSeconds);
    counter.reset();
    const posts = await postEverySecond(baseUrl, adminToken, SCALE.busySeconds);
    const busy = ratesOf(counter.rcu, SCALE.busySeconds);
    // Every connection gets every post (in seq order: the last one's arrival means all arrived).
    const missing = (
      await Promise.all(
        streams.map(async (s) => {
          await s
            .next(
              isChange('post.created', (p) => p.postId === posts.at(-1)),
              30_000,
            )
            .catch(() => undefined);
          const seen = new Set(s.changes().map((f) => f.data.payload?.postId));
          return posts.filter((id) => !seen.has(id)).length;
        }),
      )
    ).reduce((n, m) => n + m, 0);

    console.log(
      `stream scale: ${connections} connections, ${env('LIVE_REPLICAS')} head replicas, poll every ${env('LIVE_POLL_MS') ?? 1000} ms (jittered), coalescing off`,
    );
    const idleShare = report('  idle', idle, added(idle, idleBaseline), connections);
    const busyByClients = added(busy, busyBaseline);
    const busyShare = report(`  one post a second (${posts.length} posts)`, busy, busyByClients, connections);
    console.log(`  post.created frames missing: ${missing} of ${posts.length * connections}`);
    const ok = idleShare <= BUDGET.sharePerClient && busyShare <= BUDGET.sharePerClient && missing === 0;
    return { ok, busyPerClient: total(busyByClients) / connections };
  } finally {
    for (const s of streams) s.close();
    await sleep(2000); // the streams give their slots back before the runtime stops
  }
}

const env = (name: string) => process.env[name];
