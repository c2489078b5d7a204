import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpEvent, lambdaContext } from '../../../test/support/lambda-event.ts';
import { forbidden } from '../../errors.ts';
import { cors } from './cors.ts';
import { httpErrors } from './http-errors.ts';

const ok = async () => ({ statusCode: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' });

describe('cors middleware', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('lets an allowed origin call with credentials and read the rotated token', async () => {
    vi.stubEnv('ALLOWED_ORIGINS', 'https://app.example.com');
    const res = await middy(ok).use(cors())(
      httpEvent({ headers: { origin: 'https://app.example.com' } }),
      lambdaContext('t'),
    );
    expect(res.headers).toMatchObject({
      'content-type': 'text/plain',
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': expect.stringContaining('set-auth-token'),
      vary: 'Origin',
    });
  });

  it('gives a disallowed origin, or none, no CORS header at all', async () => {
    vi.stubEnv('ALLOWED_ORIGINS', 'https://app.example.com');
    for (const headers of [{ origin: 'https://evil.example.com' }, {}] as Record<string, string>[]) {
      const res = await middy(ok).use(cors())(httpEvent({ headers }), lambdaContext('t'));
      expect(Object.keys(res.headers ?? {}).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('adds the headers to error answers too', async () => {
    vi.stubEnv('ALLOWED_ORIGINS', '*');
    const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(async () => {
      throw forbidden();
    })
      .use(cors())
      .use(httpErrors());
    const res = await handler(httpEvent({ headers: { origin: 'https://any.example.com' } }), lambdaContext('t'));
    expect(res.statusCode).toBe(403);
    expect(res.headers?.['access-control-allow-origin']).toBe('https://any.example.com');
  });
});
