import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { buildEvent, compileRoutes, matchRoute } from '../../infra/local/event.ts';
import { msUntilDaily } from '../../infra/local/scheduler.ts';
import { routes } from '../../shared/api/routes/index.ts';

const fakeRequest = (method: string, url: string, headers: [string, string][]): IncomingMessage =>
  ({
    method,
    url,
    httpVersion: '1.1',
    rawHeaders: headers.flat(),
    headers: Object.fromEntries(headers.map(([k, v]) => [k.toLowerCase(), v])),
    socket: { remoteAddress: '127.0.0.1' },
  }) as unknown as IncomingMessage;

describe('local API Gateway emulation', () => {
  const compiled = compileRoutes(routes);

  it('matches the most specific route and extracts path parameters', () => {
    const m = matchRoute(compiled, 'GET', '/api/v1/people/abc-123');
    expect(m?.route.def.name).toBe('get-person');
    expect(m?.params).toEqual({ userId: 'abc-123' });
    expect(matchRoute(compiled, 'GET', '/api/v1/nothing-here')).toBeNull();
    expect(matchRoute(compiled, 'DELETE', '/api/v1/health')).toBeNull();
  });

  it('builds a payload 2.0 event like API Gateway (cookies, joined repeats, raw query, base64 binaries)', () => {
    const req = fakeRequest('POST', '/api/v1/people/u1?a=1&a=2&b=x%20y', [
      ['Content-Type', 'application/octet-stream'],
      ['Cookie', 'one=1; two=2'],
      ['X-Custom', 'p'],
      ['X-Custom', 'q'],
    ]);
    const event = buildEvent(req, Buffer.from([0, 1, 2]), null);
    expect(event.version).toBe('2.0');
    expect(event.rawQueryString).toBe('a=1&a=2&b=x%20y');
    expect(event.queryStringParameters).toEqual({ a: '1,2', b: 'x y' });
    expect(event.cookies).toEqual(['one=1', 'two=2']);
    expect(event.headers['x-custom']).toBe('p,q');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body!, 'base64')).toEqual(Buffer.from([0, 1, 2]));
    expect(event.routeKey).toBe('$default');
  });

  it('keeps JSON bodies as text', () => {
    const req = fakeRequest('POST', '/api/v1/auth/sign-in/email', [['content-type', 'application/json']]);
    const event = buildEvent(req, Buffer.from('{"a":1}'), null);
    expect(event.isBase64Encoded).toBe(false);
    expect(event.body).toBe('{"a":1}');
  });

  it('computes the next daily run in a timezone', () => {
    const now = new Date('2026-03-01T23:00:00Z');
    expect(msUntilDaily('00:05', 'UTC', now)).toBe(65 * 60 * 1000);
    expect(msUntilDaily('23:30', 'UTC', now)).toBe(30 * 60 * 1000);
  });
});
