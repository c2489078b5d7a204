import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { AnyRoute, Method } from '../../shared/api/route-def.ts';
import { routeKey, routeMethods } from '../../shared/api/route-def.ts';

/** A route of the table, compiled for matching request paths. */
export interface CompiledRoute {
  def: AnyRoute;
  regex: RegExp;
  params: string[];
}

export function compileRoutes(defs: AnyRoute[]): CompiledRoute[] {
  return (
    defs
      .filter((d) => d.path !== '$default')
      .map((def) => {
        const params: string[] = [];
        const pattern = def.path
          .split('/')
          .map((seg) => {
            const m = /^\{(\w+)\}$/.exec(seg);
            if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            params.push(m[1]);
            return '([^/]+)';
          })
          .join('/');
        return { def, regex: new RegExp(`^${pattern}$`), params };
      })
      // Literal segments win over parameters, as in API Gateway (`/people/skills` before `/people/{userId}`).
      .sort((a, b) => a.params.length - b.params.length)
  );
}

/** Whether every percent-escape of a path decodes (to UTF-8); API Gateway answers 400 itself otherwise. */
export function isValidPathEncoding(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** API Gateway's choice: the most specific declared route for this method and path, else none ($default). */
export function matchRoute(
  routes: CompiledRoute[],
  method: string,
  path: string,
): { route: CompiledRoute; params: Record<string, string> } | null {
  for (const route of routes) {
    if (!routeMethods(route.def).includes(method as Method)) continue;
    const m = route.regex.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    route.params.forEach((name, i) => {
      params[name] = decodeURIComponent(m[i + 1]);
    });
    return { route, params };
  }
  return null;
}

const TEXT_TYPES = /^(application\/(json|[\w.+-]+\+json|x-www-form-urlencoded|xml|javascript)|text\/)/i;

/**
 * The same HTTP API payload format 2.0 event API Gateway builds: lower-case headers (repeats joined
 * with commas), cookies split out, repeated query values joined with commas, binary bodies in base64.
 */
export function buildEvent(
  req: IncomingMessage,
  body: Buffer,
  match: { route: CompiledRoute; params: Record<string, string> } | null,
): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    const value = req.rawHeaders[i + 1];
    if (name === 'cookie') continue;
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  headers['x-forwarded-proto'] ??= 'http';
  headers['x-forwarded-for'] ??= req.socket.remoteAddress ?? '127.0.0.1';
  const cookieHeader = req.headers.cookie;
  const cookies = cookieHeader
    ? cookieHeader
        .split(';')
        .map((c) => c.trim())
        .filter(Boolean)
    : undefined;
  const rawQueryString = url.search.startsWith('?') ? url.search.slice(1) : '';
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = query[k] === undefined ? v : `${query[k]},${v}`;
  const method = (req.method ?? 'GET').toUpperCase();
  // A "text" body that is not UTF-8 travels base64-encoded, so the function sees the bytes that were
  // sent (and can refuse them) rather than text with U+FFFD put in place of the bad bytes.
  const isText = TEXT_TYPES.test(headers['content-type'] ?? '') && isUtf8(body);
  const now = new Date();
  const key = match ? routeKey(match.route.def) : '$default';
  return {
    version: '2.0',
    routeKey: key,
    rawPath: url.pathname,
    rawQueryString,
    cookies,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: match && Object.keys(match.params).length ? match.params : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0],
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: key,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
  } as APIGatewayProxyEventV2;
}

/** A Lambda context good enough for middy and Powertools. */
export function lambdaContext(functionName: string, timeoutMs = 10_000, memoryMb = 512): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
