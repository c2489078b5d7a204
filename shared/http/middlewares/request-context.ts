import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { newContext, type RequestContext } from '../context.ts';

/** Where the wrapper keeps the request's context: the other middlewares read `internal`, the route's function `context`. */
export interface WithRequestContext {
  ctx: RequestContext;
  started: number;
}

export const contextOf = (request: { internal: unknown }): Partial<WithRequestContext> =>
  request.internal as Partial<WithRequestContext>;

/** Creates the RequestContext the other middlewares fill in and the route's function receives. */
export const requestContext = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  name: 'request-context',
  before: (request) => {
    const ctx = newContext(request.event);
    Object.assign(request.internal as object, { ctx, started: Date.now() } satisfies WithRequestContext);
    (request.context as unknown as { ctx: RequestContext }).ctx = ctx;
  },
});
