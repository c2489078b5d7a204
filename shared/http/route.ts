import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod';
import type { RouteDef } from '../api/route-def.ts';
import { loadSecrets } from '../config/secrets.ts';
import { instrument } from '../observability/instrumented.ts';
import { logger } from '../observability/logger.ts';
import { recordRequest } from '../observability/metrics.ts';
import { newContext, type RequestContext } from './context.ts';
import { withDeadline } from './deadline.ts';
import type { idempotent } from './idempotency.ts';
import { cors } from './middlewares/cors.ts';
import { httpErrors } from './middlewares/http-errors.ts';
import { publicAnswers } from './middlewares/public-answers.ts';
import { requestParser } from './middlewares/request-parser.ts';
import { session } from './middlewares/session.ts';
import { signInPage } from './middlewares/sign-in-page.ts';
import type { parseMultipart } from './multipart.ts';
import { Reply } from './reply.ts';

export type RouteHandler<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> = (
  req: RequestContext<z.output<Q>, z.output<B>>,
) => Promise<z.input<R> | Reply | undefined>;

export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** Shapes a handler's result into the API Gateway answer; the body goes through the response schema. */
function toResponse(def: RouteDef<any, any, any>, result: unknown): APIGatewayProxyStructuredResultV2 {
  const r = result instanceof Reply ? result : new Reply(def.status, result);
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...r.headers };
  if (r.raw) {
    const isText = typeof r.raw.data === 'string';
    return {
      statusCode: r.status,
      headers: { ...headers, 'content-type': r.raw.contentType },
      cookies: r.cookies.length ? r.cookies : undefined,
      body: isText ? (r.raw.data as string) : (r.raw.data as Buffer).toString('base64'),
      isBase64Encoded: !isText,
    };
  }
  let body = '';
  if (r.body !== undefined && r.status !== 204) {
    const value = r.status === def.status && def.response ? def.response.parse(r.body) : r.body;
    body = JSON.stringify(value);
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  return { statusCode: r.status, headers, body, cookies: r.cookies.length ? r.cookies : undefined };
}

export interface RouteOptions {
  /** The multipart parser, for routes whose definition has `multipart` (see `uploadRoute`). */
  parseMultipart?: typeof parseMultipart;
  /** The `Idempotency-Key` support, for routes whose definition has `idempotent` (see `idempotentRoute`). */
  idempotency?: typeof idempotent;
  /** A page a browser asking for HTML gets instead of the JSON 401 (the reference page's sign-in form). */
  signInPage?: () => string;
}

/**
 * Wraps a route's function into a Lambda handler: errors → common body, CORS, session and role,
 * query and body validation, structured access log. Handlers only parse nothing, authorise what the
 * route table cannot express, call the domain and shape the answer.
 */
export function route<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  def: RouteDef<Q, B, R>,
  fn: RouteHandler<Q, B, R>,
  options: RouteOptions = {},
): LambdaHandler {
  if (def.multipart && !options.parseMultipart) {
    throw new Error(
      `${def.name} takes a multipart upload: export its handler with uploadRoute (shared/http/upload-route.ts)`,
    );
  }
  if (def.idempotent && !options.idempotency) {
    throw new Error(
      `${def.name} takes an Idempotency-Key: export its handler with idempotentRoute (shared/http/idempotent-route.ts)`,
    );
  }
  const base = async (_event: APIGatewayProxyEventV2, context: Context) => {
    const ctx = (context as unknown as { ctx: RequestContext }).ctx;
    return toResponse(def, await fn(ctx as RequestContext<z.output<Q>, z.output<B>>));
  };
  // Idempotency wraps the work itself, inside every middleware (see idempotency.ts for why).
  // middy's own early timeout covers only the route's function; withDeadline covers the whole request.
  const handler = instrument(
    middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(options.idempotency?.(def, base) ?? base, {
      timeoutEarlyInMillis: 0,
    }),
    def.area,
  )
    .before((request) => {
      const ctx = newContext(request.event);
      (request.internal as Record<string, unknown>).ctx = ctx;
      (request.context as unknown as { ctx: RequestContext }).ctx = ctx;
      (request.internal as Record<string, unknown>).started = Date.now();
    })
    .use(accessLog(def))
    .use(def.cache ? publicAnswers(def.cache) : cors())
    .use(options.signInPage ? [signInPage(options.signInPage)] : [])
    .use(httpErrors(def))
    // Deployed: the secrets this function is granted, fetched on first use and cached (shared/config/secrets.ts).
    .before(() => loadSecrets())
    .use(session(def))
    .use(requestParser(def, options.parseMultipart));
  return withDeadline(def, handler as unknown as LambdaHandler);
}

/**
 * One line and one metric set per request: route, status, duration; the caller's id only outside
 * grievance routes. The Lambda context (request id, cold start) comes with every line (instrument()).
 */
function accessLog(
  def: RouteDef<any, any, any>,
): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> {
  const log = (request: middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>) => {
    const internal = request.internal as { ctx?: RequestContext; started?: number };
    const status = request.response?.statusCode;
    const ms = Date.now() - (internal.started ?? Date.now());
    const fields: Record<string, unknown> = { route: def.name, method: def.method, status, ms };
    if (!def.anonymous && internal.ctx?.callerOrNull) fields.userId = internal.ctx.callerOrNull.userId;
    logger.info('request', fields);
    recordRequest(status);
  };
  return { name: 'access-log', after: log, onError: log };
}
