import middy from '@middy/core';
import { describe, expect, it } from 'vitest';
import { httpEvent, lambdaContext } from '../../../test/support/lambda-event.ts';
import type { RequestContext } from '../context.ts';
import { httpErrors } from './http-errors.ts';
import { contextOf, requestContext } from './request-context.ts';

describe('request-context middleware', () => {
  it('hands the other middlewares and the function the same context, built from the event', async () => {
    let fromMiddleware: RequestContext | undefined;
    let fromFunction: RequestContext | undefined;
    const event = httpEvent({
      pathParameters: { postId: 'p1' },
      headers: { 'user-agent': 'ua', 'x-forwarded-proto': 'http' },
    });
    await middy(async (_e: unknown, context: { ctx?: RequestContext }) => {
      fromFunction = context.ctx;
      return { statusCode: 200 };
    })
      .use(requestContext())
      .before((request) => {
        fromMiddleware = contextOf(request).ctx;
      })(event, lambdaContext('t') as never);
    expect(fromFunction).toBeDefined();
    expect(fromMiddleware).toBe(fromFunction);
    expect(fromFunction).toMatchObject({
      params: { postId: 'p1' },
      userAgent: 'ua',
      secure: false,
      callerIfSignedIn: null,
    });
    expect(fromFunction?.receivedAt).toBe(event.requestContext.timeEpoch);
  });

  it('answers 401 when a function asks for the caller of a request without one', async () => {
    const res = await middy(async (_e: unknown, context: { ctx?: RequestContext }) => {
      context.ctx?.caller;
      return { statusCode: 200 };
    })
      .use(requestContext())
      .use(httpErrors())(httpEvent(), lambdaContext('t') as never);
    expect(res.statusCode).toBe(401);
  });
});
