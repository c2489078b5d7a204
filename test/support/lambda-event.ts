import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { vi } from 'vitest';
import { lambdaContext } from '../../infra/local/event.ts';
import type { AnyRoute } from '../../shared/api/route-def.ts';
import type { RequestContext } from '../../shared/http/context.ts';
import { httpErrors } from '../../shared/http/middlewares/http-errors.ts';
import { requestContext } from '../../shared/http/middlewares/request-context.ts';

export { lambdaContext };

/** A made-up API Gateway (HTTP API, payload 2.0) event, as the middlewares' unit tests feed middy. */
export function httpEvent(
  over: {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    rawQueryString?: string;
    body?: string;
    cookies?: string[];
    pathParameters?: Record<string, string>;
  } = {},
): APIGatewayProxyEventV2 {
  const method = over.method ?? 'GET';
  const path = over.path ?? '/api/v1/test';
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: over.rawQueryString ?? '',
    headers: over.headers ?? {},
    cookies: over.cookies,
    pathParameters: over.pathParameters,
    body: over.body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'unit-test' },
      requestId: 'req-1',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  };
}

/** A route definition for a unit test; only what the middlewares read. */
export const testRoute = (over: Partial<AnyRoute> = {}): AnyRoute => ({
  name: 'test-route',
  area: 'test',
  method: 'GET',
  path: '/api/v1/test',
  auth: 'session',
  summary: 'a route of a unit test',
  status: 200,
  ...over,
});

/**
 * Runs one middleware (with the request context and the error answers around it) before a function
 * that answers 200: the answer, its parsed body and the context the function saw (none if refused).
 */
export async function throughMiddleware(
  def: AnyRoute,
  middleware: MiddlewareObj<APIGatewayProxyEventV2>,
  event: APIGatewayProxyEventV2,
) {
  let seen: RequestContext | undefined;
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(
    async (_e: APIGatewayProxyEventV2, context: Context) => {
      seen = (context as unknown as { ctx: RequestContext }).ctx;
      return { statusCode: 200, body: '' };
    },
  )
    .use(requestContext())
    .use(httpErrors(def))
    .use(middleware as MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>);
  const res = await handler(event, lambdaContext('unit-test'));
  return { res, body: res.body ? JSON.parse(res.body) : undefined, ctx: seen };
}

/**
 * Calls a route's handler in this process, the way API Gateway would (a Bearer token, JSON), and answers
 * what it logged on stdout and stderr with its answer: how the anonymity tests (grievances, surveys) check
 * that a route's log lines name nobody.
 */
export async function invokeCapturingLogs(
  handler: (event: any, context: any) => Promise<any>,
  token: string,
  o: { method: string; path: string; params?: Record<string, string>; body?: unknown },
) {
  const lines: string[] = [];
  const capture = (chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture as never);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture as never);
  const event = {
    version: '2.0',
    routeKey: `${o.method} ${o.path}`,
    rawPath: o.path,
    rawQueryString: '',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-forwarded-proto': 'http' },
    pathParameters: o.params,
    requestContext: { http: { method: o.method, path: o.path } },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    isBase64Encoded: false,
  };
  const res = await handler(event, lambdaContext('in-process')).finally(() => {
    out.mockRestore();
    err.mockRestore();
  });
  return { res, log: lines.join('') };
}
