import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AnyRoute } from '../../shared/api/route-def.ts';

export { lambdaContext } from '../../infra/local/event.ts';

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
