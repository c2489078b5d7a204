import middy from '@middy/core';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { httpEvent, lambdaContext, testRoute } from '../../../test/support/lambda-event.ts';
import type { AnyRoute } from '../../api/route-def.ts';
import { notFound } from '../../errors.ts';
import { instrument } from '../../observability/instrumented.ts';
import { logger } from '../../observability/logger.ts';
import type { RequestContext } from '../context.ts';
import { accessLog } from './access-log.ts';
import { httpErrors } from './http-errors.ts';
import { requestContext } from './request-context.ts';

// The logger takes its level when it is created, and every invocation returns to it: INFO, whatever the run's.
vi.hoisted(() => {
  process.env.LOG_LEVEL = 'INFO';
});

const caller = { userId: 'u-42' } as RequestContext['caller'];

/** The JSON lines Powertools' logger printed (through its own console, with the Lambda context injected). */
let printed: MockInstance;
const requestLines = () =>
  printed.mock.calls.map(([line]) => JSON.parse(String(line))).filter((line) => line.message === 'request');

function handlerFor(def: AnyRoute, fn: () => Promise<unknown>) {
  return instrument(
    middy(fn)
      .use(requestContext())
      .before((request) => {
        (request.internal as { ctx: RequestContext }).ctx.callerIfSignedIn = caller;
      })
      .use(accessLog(def))
      .use(httpErrors(def)),
    def.area,
  );
}

describe('access-log middleware', () => {
  beforeEach(() => {
    printed = vi.spyOn((logger as unknown as { console: Console }).console, 'info').mockImplementation(() => undefined);
  });
  afterEach(() => printed.mockRestore());

  it('writes one line per request with route, status, duration, the caller, the request id and the cold start', async () => {
    const def = testRoute({ name: 'get-thing' });
    const context = lambdaContext('get-thing');
    await handlerFor(def, async () => ({ statusCode: 200, body: '' }))(httpEvent(), context as never);
    const lines = requestLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      route: 'get-thing',
      method: 'GET',
      status: 200,
      ms: expect.any(Number),
      userId: 'u-42',
      function_request_id: context.awsRequestId,
      cold_start: expect.any(Boolean),
    });
  });

  it('logs the status of a refused request too', async () => {
    await handlerFor(testRoute(), async () => {
      throw notFound();
    })(httpEvent(), lambdaContext('t') as never);
    expect(requestLines()).toMatchObject([{ status: 404 }]);
  });

  it('never logs the caller on an anonymous (grievance) route', async () => {
    await handlerFor(testRoute({ anonymous: true }), async () => ({ statusCode: 201, body: '' }))(
      httpEvent(),
      lambdaContext('t') as never,
    );
    const [line] = requestLines();
    expect(line.status).toBe(201);
    expect(JSON.stringify(line)).not.toContain('u-42');
  });
});
