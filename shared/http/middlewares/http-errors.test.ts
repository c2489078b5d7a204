import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { httpEvent, lambdaContext, testRoute } from '../../../test/support/lambda-event.ts';
import { conflict, invalid, notFound, tooMany, unauthenticated, unavailable } from '../../errors.ts';
import { HttpError } from '../errors.ts';
import { httpErrors } from './http-errors.ts';

const answerTo = async (err: unknown, def = testRoute()) => {
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(async () => {
    throw err;
  }).use(httpErrors(def));
  const res = await handler(httpEvent(), lambdaContext('t'));
  return { ...res, body: JSON.parse(res.body ?? '{}') };
};

describe('http-errors middleware', () => {
  it.each([
    [invalid(['name: must not be empty']), 400, 'Bad Request'],
    [unauthenticated(), 401, 'Unauthorized'],
    [notFound('No such post.'), 404, 'Not Found'],
    [conflict('The poll is closed.'), 409, 'Conflict'],
  ])('maps the domain refusal %s to its status in the common body', async (err, status, error) => {
    const res = await answerTo(err);
    expect(res.statusCode).toBe(status);
    expect(res.headers?.['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ statusCode: status, message: err.reasons, error });
  });

  it('keeps field errors as a list', async () => {
    expect((await answerTo(invalid(['a: bad', 'b: bad']))).body.message).toEqual(['a: bad', 'b: bad']);
  });

  it('sends Retry-After with 429 and 503 refusals', async () => {
    const many = await answerTo(tooMany('Slow down.', 42.2));
    expect(many.statusCode).toBe(429);
    expect(many.headers?.['retry-after']).toBe('43');
    const full = await answerTo(unavailable('Full.', 30));
    expect(full.statusCode).toBe(503);
    expect(full.headers?.['retry-after']).toBe('30');
  });

  it('keeps the headers an HttpError carries (405 Allow)', async () => {
    const res = await answerTo(new HttpError(405, 'Use GET.', { headers: { allow: 'GET' } }));
    expect(res.statusCode).toBe(405);
    expect(res.headers?.allow).toBe('GET');
    expect(res.body).toEqual({ statusCode: 405, message: 'Use GET.', error: 'Method Not Allowed' });
  });

  it('adds the reason code on the authentication routes only', async () => {
    const err = unauthenticated('Your session has expired. Sign in again.', 'SESSION_EXPIRED');
    expect((await answerTo(err, testRoute({ area: 'auth' }))).body.code).toBe('SESSION_EXPIRED');
    expect((await answerTo(notFound(), testRoute({ area: 'auth' }))).body.code).toBe('NOT_FOUND');
    expect((await answerTo(err, testRoute({ area: 'feed' }))).body).not.toHaveProperty('code');
  });

  it('answers a throttled table 503 with Retry-After', async () => {
    const throttled = new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} });
    const res = await answerTo(throttled);
    expect(res.statusCode).toBe(503);
    expect(Number(res.headers?.['retry-after'])).toBeGreaterThan(0);
  });

  it('answers a bug 500 without its details', async () => {
    const res = await answerTo(new TypeError('secret internals'));
    expect(res.statusCode).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('secret internals');
    expect(res.body).toMatchObject({ statusCode: 500, error: 'Internal Server Error' });
  });
});
