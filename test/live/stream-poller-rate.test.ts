import { randomUUID } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import type { FunctionHost } from '../../infra/local/function-host.ts';
import { freePort } from '../../infra/local/runtime.ts';
import { StreamPoller } from '../../infra/local/stream-poller.ts';
import { streamConsumers } from '../../shared/api/background.ts';

/**
 * The local stream poller reads an idle stream as Lambda does (4 GetRecords a second) and looks for new
 * shards rarely: DynamoDB Local answers each DescribeStream and GetRecords by reading the stream's
 * records in its one SQLite thread, and a poller asking every 150 ms held that thread most of the run.
 * Counted by a proxy in front of a DynamoDB Local of this test's own (a streamed table made late in the
 * suite's would be slow for the very reason: docs/testing.md, "Tables of a test's own").
 */
const table = `stream-poller-${randomUUID().slice(0, 8)}`;
const calls = new Map<string, number>();
let proxy: Server;
let endpoint = '';
let dynamo: Awaited<ReturnType<typeof startDynamoDbLocal>>;
const client = () => new DynamoDBClient({ endpoint: dynamo.endpoint, region: process.env.AWS_REGION });

beforeAll(async () => {
  dynamo = await startDynamoDbLocal(null, await freePort());
  const target = new URL(dynamo.endpoint);
  await ensureTable(client(), table);
  proxy = createServer((req, res) => {
    const op = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    calls.set(op, (calls.get(op) ?? 0) + 1);
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await dynamo.stop();
});

describe('the local stream poller', () => {
  it('polls an idle stream 4 times a second, describes it rarely, and still hands a new record on', async () => {
    const events: DynamoDBStreamEvent[] = [];
    const host = {
      invoke: async (_settings: unknown, event: unknown) => {
        events.push(event as DynamoDBStreamEvent);
        return { status: 'ok' as const, result: undefined };
      },
    } as unknown as FunctionHost;
    const lines: string[] = [];
    const probe = { ...streamConsumers[0], name: 'probe', filters: [] };
    const poller = new StreamPoller(host, endpoint, table, [probe], (line) => lines.push(line));
    await poller.start();
    try {
      // Its first round (the shards described, an iterator each) is under way when start() answers.
      const started = Date.now() + 10_000;
      while (!calls.get('GetRecords') && Date.now() < started) await new Promise((r) => setTimeout(r, 20));
      calls.clear();
      const idleMs = 3_000;
      await new Promise((r) => setTimeout(r, idleMs));
      // Once a shard closes (or every 10 s) the shards are described again: none in 3 idle seconds.
      expect(calls.get('DescribeStream') ?? 0).toBe(0);
      expect(calls.get('GetRecords') ?? 0).toBeGreaterThan(0);
      expect(calls.get('GetRecords') ?? 0).toBeLessThanOrEqual((idleMs / 1000) * 4 + 1);

      await client().send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'PROBE' }, sk: { S: 'PROBE' } } }));
      const until = Date.now() + 10_000;
      while (events.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      const keys = events.flatMap((e) => e.Records.map((r) => r.dynamodb?.Keys?.pk?.S));
      expect(keys, lines.join('\n')).toEqual(['PROBE']);
    } finally {
      await poller.stop();
    }
  }, 30_000);
});
