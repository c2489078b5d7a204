import { describe, expect, it } from 'vitest';
import { httpEvent, testRoute, throughMiddleware } from '../../../test/support/lambda-event.ts';
import type { AnyRoute } from '../../api/route-def.ts';
import * as z from '../../util/zod.ts';
import { MAX_PATH_PARAMETER_BYTES, requestParser } from './request-parser.ts';

const withQuery = testRoute({
  query: z.strictObject({ limit: z.optional(z.coerce.number().check(z.int()).check(z.gte(1))) }),
});
const withBody = testRoute({ method: 'POST', body: z.strictObject({ name: z.string().check(z.minLength(1)) }) });

async function call(def: AnyRoute, event: Parameters<typeof httpEvent>[0]) {
  const { res, body, ctx } = await throughMiddleware(def, requestParser(def), httpEvent(event));
  return { status: res.statusCode, body, ctx };
}

describe('request-parser middleware', () => {
  it('parses the declared query', async () => {
    const { status, ctx } = await call(withQuery, { rawQueryString: 'limit=5' });
    expect(status).toBe(200);
    expect(ctx?.query).toEqual({ limit: 5 });
  });

  it.each([
    ['an unknown parameter', withQuery, 'bogus=1'],
    ['a repeated parameter', withQuery, 'limit=1&limit=2'],
    ['an invalid value', withQuery, 'limit=0'],
    ['a parameter on a route that declares none', testRoute(), 'x=1'],
    ['bad URL encoding', withQuery, 'limit=%E0%A4%A'],
  ])('refuses %s with 400 and field errors', async (_name, def, rawQueryString) => {
    const { status, body } = await call(def, { rawQueryString });
    expect(status).toBe(400);
    expect(Array.isArray(body.message)).toBe(true);
  });

  it('parses and validates a JSON body', async () => {
    const good = await call(withBody, { method: 'POST', body: '{"name":"x"}' });
    expect(good.ctx?.body).toEqual({ name: 'x' });
    const unknownField = await call(withBody, { method: 'POST', body: '{"name":"x","shoeSize":42}' });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.message).toEqual([expect.stringContaining('shoeSize')]);
  });

  it.each([
    ['malformed JSON', '{"name": ', {}, 400],
    ['a lone surrogate', '{"name":"\\ud800"}', {}, 400],
    ['a body that is not JSON', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' }, 415],
  ])('refuses %s', async (_name, body, headers, status) => {
    expect((await call(withBody, { method: 'POST', body, headers })).status).toBe(status);
  });

  it('refuses a body on a route that takes none, but lets `{}` through', async () => {
    const def = testRoute({ method: 'POST' });
    expect((await call(def, { method: 'POST', body: '{"a":1}' })).status).toBe(400);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await call(def, { method: 'POST', body: 'a=1', headers: form })).status).toBe(400);
    expect((await call(def, { method: 'POST', body: '{}' })).status).toBe(200);
  });

  it('answers an over-long path parameter 404 (it names nothing)', async () => {
    const long = 'x'.repeat(MAX_PATH_PARAMETER_BYTES + 1);
    expect((await call(testRoute(), { pathParameters: { id: long } })).status).toBe(404);
    expect((await call(testRoute(), { pathParameters: { id: 'x' } })).status).toBe(200);
  });
});
