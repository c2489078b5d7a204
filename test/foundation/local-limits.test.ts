import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApiGateway } from '../../infra/local/api-gateway.ts';
import { FunctionHost } from '../../infra/local/function-host.ts';
import { freePort, ROOT } from '../../infra/local/runtime.ts';
import { defineRoute } from '../../shared/api/route-def.ts';

/**
 * What API Gateway (HTTP API) and Lambda answer on their own, mirrored by the local gateway: 413
 * over the request payload limits, 500 when the function times out or its answer is over 6 MB, 503
 * when the integration times out. The route's function is a test handler that waits and answers
 * as many bytes as asked.
 */
const MB = 1024 * 1024;
const base = { area: 'test', auth: 'public', summary: 'test', status: 200 } as const;
const routes = [
  defineRoute({ ...base, name: 'quick', method: 'POST', path: '/quick', timeout: 1 }),
  defineRoute({ ...base, name: 'long', method: 'GET', path: '/long', timeout: 60 }),
  defineRoute({ ...base, name: 'not-found', method: 'ANY', path: '$default' }),
];
const host = new FunctionHost(ROOT, () => undefined);
const gateway = new LocalApiGateway(routes, host, () => undefined, {
  settingsOf: (r) => ({
    name: r.name,
    handler: 'test/support/functions/slow-route.ts',
    timeoutSeconds: r.timeout ?? 10,
    memoryMb: 512,
  }),
  integrationTimeoutMs: 2000,
});
let url = '';

beforeAll(async () => {
  const port = await freePort();
  await gateway.listen(port);
  url = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await gateway.close();
  await host.stop();
});

const call = async (method: string, path: string, body?: Buffer) => {
  const res = await fetch(`${url}${path}`, {
    method,
    body,
    headers: body ? { 'content-type': 'application/octet-stream' } : {},
  });
  return { status: res.status, text: await res.text() };
};

describe('local gateway: Lambda and API Gateway limits', () => {
  it('answers within the limits', async () => {
    expect(await call('POST', '/quick?ms=0&size=2')).toEqual({ status: 200, text: 'xx' });
  });

  it('cuts a function off at its timeout with HTTP API’s 500', async () => {
    expect(await call('POST', '/quick?ms=3000')).toEqual({ status: 500, text: '{"message":"Internal Server Error"}' });
  });

  it('answers 503 when the integration times out before the function', async () => {
    expect(await call('GET', '/long?ms=4000')).toEqual({ status: 503, text: '{"message":"Service Unavailable"}' });
  });

  it('answers 500 for a response over Lambda’s 6 MB', async () => {
    expect((await call('POST', `/quick?size=${6 * MB + 1}`)).status).toBe(500);
  });

  it('answers 413 for a request whose event is over 6 MB (a binary body grows by a third in base64)', async () => {
    const res = await call('POST', '/quick', Buffer.alloc(5 * MB));
    // Refused before any function runs, in the common error body (as the 10 MB limit is).
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });

  it('answers 413 for a request body over HTTP API’s 10 MB', async () => {
    expect((await call('POST', '/quick', Buffer.alloc(10 * MB + 1))).status).toBe(413);
  });
});
