import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LocalApiGateway } from '../../infra/local/api-gateway.ts';
import { lambdaContext } from '../../infra/local/event.ts';
import { FunctionHost } from '../../infra/local/function-host.ts';
import { freePort, ROOT } from '../../infra/local/runtime.ts';
import { routes } from '../../shared/api/routes/index.ts';
import { setDbClient } from '../../shared/db/client.ts';
import { RETRY_AFTER_SECONDS } from '../../shared/db/unavailable.ts';
import { RESPONSE_RESERVE_MS } from '../../shared/http/deadline.ts';
import { newMember } from '../support/api.ts';

/**
 * The table and the bucket failing under the real handlers and the real SDK clients (their production
 * settings: timeouts, retries): a fault-injecting stand-in answers as DynamoDB and S3 do when they
 * throttle or fail, or never answers; a closed port stands for an unreachable endpoint. A second API
 * emulation runs in this process, so the clients it uses are the ones this test points elsewhere.
 */
type Mode = 'error' | 'throttle' | 'slow';
let mode: Mode = 'error';
let stub: Server;
let stubUrl = '';
let closedUrl = '';
let gateway: LocalApiGateway | undefined;
let host: FunctionHost | undefined;
let base = '';
const openSockets = new Set<Socket>();

function startStub(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (mode === 'slow') return; // holds the connection: the client's own timeout must end it
      const dynamo = req.headers['x-amz-target'] !== undefined;
      if (dynamo) {
        const [status, type, message] =
          mode === 'throttle'
            ? [400, 'ThrottlingException', 'Rate of requests exceeds the allowed throughput.']
            : [500, 'InternalServerError', 'Internal server error'];
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': type });
        res.end(JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message }));
        return;
      }
      const [status, code] = mode === 'throttle' ? [503, 'SlowDown'] : [500, 'InternalError'];
      res.writeHead(status, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
    });
  });
  server.on('connection', (s) => {
    openSockets.add(s);
    s.on('close', () => openSockets.delete(s));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * Puts the API in front of functions whose clients (made lazily from the SDK's endpoint variables)
 * use `endpoint`: fresh execution environments (infra/local/function-host.ts) with that variable.
 */
async function pointAt(which: 'table' | 'bucket', endpoint: string, extra: Record<string, string> = {}) {
  const variable = which === 'table' ? 'AWS_ENDPOINT_URL_DYNAMODB' : 'AWS_ENDPOINT_URL_S3';
  host = new FunctionHost(ROOT, () => undefined, { env: { [variable]: endpoint, ...extra } });
  gateway = new LocalApiGateway(routes, host, () => undefined);
  const port = await freePort();
  await gateway.listen(port);
  base = `http://127.0.0.1:${port}/api/v1`;
}

async function call(
  method: string,
  path: string,
  opts: { token?: string; body?: RequestInit['body']; type?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.type) headers['content-type'] = opts.type;
  const started = Date.now();
  const res = await fetch(`${base}${path}`, { method, headers, body: opts.body });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text, ms: Date.now() - started };
}

const expectUnavailable = (res: Awaited<ReturnType<typeof call>>) => {
  expect(res.status, res.text).toBe(503);
  expect(res.retryAfter).toBe(String(RETRY_AFTER_SECONDS));
  expect(JSON.parse(res.text)).toMatchObject({
    statusCode: 503,
    error: 'Service Unavailable',
    message: expect.any(String),
  });
};

let member: { token: string };
let restore: (() => void) | undefined;

beforeAll(async () => {
  member = await newMember();
  stub = await startStub();
  stubUrl = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;
  closedUrl = `http://127.0.0.1:${await freePort()}`; // nothing listens there
});

afterEach(async () => {
  restore?.();
  restore = undefined;
  mode = 'error';
  for (const s of openSockets) s.destroy();
  await gateway?.close();
  await host?.stop();
  gateway = host = undefined;
});

afterAll(async () => {
  for (const s of openSockets) s.destroy();
  await new Promise((r) => stub?.close(r));
});

describe('the table failing', () => {
  const requests = () => [
    call('GET', '/public/office-updates/01hzzzzzzzzzzzzzzzzzzzzz'),
    call('GET', '/notifications', { token: member.token }),
    call('POST', '/posts', { token: member.token, body: '{"content":"hello"}', type: 'application/json' }),
    // The streaming route (live updates) resolves its session before it streams: the same 503.
    call('GET', '/realtime/stream', { token: member.token }),
  ];

  it('answers 503 with Retry-After when DynamoDB is unreachable', async () => {
    await pointAt('table', closedUrl);
    for (const res of await Promise.all(requests())) expectUnavailable(res);
  });

  it('answers 503 with Retry-After when DynamoDB answers 500', async () => {
    await pointAt('table', stubUrl);
    for (const res of await Promise.all(requests())) expectUnavailable(res);
  });

  it('answers 503 with Retry-After when DynamoDB throttles', async () => {
    await pointAt('table', stubUrl);
    mode = 'throttle';
    for (const res of await Promise.all(requests())) expectUnavailable(res);
  });

  it('answers 503 from the service, well before the function times out, when DynamoDB does not answer', async () => {
    // The client as deployed (the local runtime gives its clients more slack: see aws-client-bounds.ts).
    await pointAt('table', stubUrl, { APP_RUNTIME: 'aws' });
    // A first request starts the function's environment: the time below is the clients', not a cold start's.
    expectUnavailable(await call('GET', '/notifications', { token: member.token }));
    mode = 'slow';
    const res = await call('GET', '/notifications', { token: member.token });
    expectUnavailable(res);
    // Deployed, the route's function has 10 s (infra/constructs/route-function.ts): the client's own
    // timeouts end the wait, with time to spare before the request deadline.
    expect(res.ms).toBeLessThan(10_000 - RESPONSE_RESERVE_MS);
  });
});

describe('the bucket failing (the table is fine)', () => {
  const png = () =>
    sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
  const requests = async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'a.png');
    return Promise.all([
      call('GET', '/files/avatars/someone_abc.webp', { token: member.token }),
      call('POST', '/files/posts', { token: member.token, body: form }),
    ]);
  };

  it('answers 503 with Retry-After when S3 is unreachable', async () => {
    await pointAt('bucket', closedUrl);
    for (const res of await requests()) expectUnavailable(res);
  });

  it('answers 503 with Retry-After when S3 answers 500 InternalError', async () => {
    await pointAt('bucket', stubUrl);
    for (const res of await requests()) expectUnavailable(res);
  });

  it('answers 503 with Retry-After when S3 answers 503 SlowDown', async () => {
    await pointAt('bucket', stubUrl);
    mode = 'throttle';
    for (const res of await requests()) expectUnavailable(res);
  });
});

describe('the request deadline', () => {
  it('answers 503 itself before the time limit even when a client has no timeout of its own', async () => {
    // A client without bounds, waiting on an endpoint that never answers: only the deadline helps.
    setDbClient(
      DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', endpoint: stubUrl, maxAttempts: 1 })),
    );
    restore = () => setDbClient(undefined);
    mode = 'slow';
    const { handler } = await import('../../functions/notifications/list-notifications.ts');
    const started = Date.now();
    const res = await handler(
      {
        version: '2.0',
        routeKey: 'GET /api/v1/notifications',
        rawPath: '/api/v1/notifications',
        rawQueryString: '',
        headers: { authorization: `Bearer ${member.token}`, origin: 'https://app.example.com' },
        requestContext: { http: { method: 'GET', path: '/api/v1/notifications' } },
        isBase64Encoded: false,
      } as never,
      lambdaContext('list-notifications', 2_500),
    );
    const ms = Date.now() - started;
    expect(res.statusCode).toBe(503);
    expect(res.headers?.['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
    expect(res.headers?.['access-control-allow-origin']).toBe('https://app.example.com');
    expect(JSON.parse(res.body ?? '')).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(ms).toBeGreaterThanOrEqual(2_500 - RESPONSE_RESERVE_MS - 100);
    expect(ms).toBeLessThan(2_500);
  });
});
