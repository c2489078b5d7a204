import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RouteDef } from '../api/route-def.ts';
import { audited } from '../audit/scope.ts';
import { instrument } from '../observability/instrumented.ts';
import type * as z from '../util/zod.ts';
import { encodeBody, MAX_BODY_BYTES, payloadBytes } from './compression.ts';
import type { RequestContext } from './context.ts';
import { withDeadline } from './deadline.ts';
import { NotAcceptableError } from './errors.ts';
import { HttpResponse } from './http-response.ts';
import type { idempotent } from './idempotency.ts';
import { routeMiddlewares } from './middlewares/route-middlewares.ts';
import type { parseMultipart } from './multipart.ts';

export type RouteHandler<Q extends z.ZodMiniType, B extends z.ZodMiniType, R extends z.ZodMiniType> = (
  req: RequestContext<z.output<Q>, z.output<B>>,
) => Promise<z.input<R> | HttpResponse | undefined>;

export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** Shapes a handler's result into the API Gateway answer; the body goes through the response schema. */
function toResponse(
  def: RouteDef<any, any, any>,
  result: unknown,
  acceptEncoding?: string,
): APIGatewayProxyStructuredResultV2 {
  const r = result instanceof HttpResponse ? result : new HttpResponse(def.status, result);
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
    const encoded = encodeBody(JSON.stringify(value), acceptEncoding);
    if (payloadBytes(encoded.body) > MAX_BODY_BYTES) {
      // Over Lambda's response payload: a clear answer instead of the platform's 500.
      throw new NotAcceptableError(
        encoded.gzip
          ? 'This answer is too large to send, even compressed.'
          : 'This answer is too large to send uncompressed: ask for it with Accept-Encoding: gzip.',
      );
    }
    body = encoded.body;
    headers['content-type'] = 'application/json; charset=utf-8';
    if (encoded.gzip) {
      headers['content-encoding'] = 'gzip';
      headers.vary = 'accept-encoding';
      return {
        statusCode: r.status,
        headers,
        body,
        isBase64Encoded: true,
        cookies: r.cookies.length ? r.cookies : undefined,
      };
    }
  }
  return { statusCode: r.status, headers, body, cookies: r.cookies.length ? r.cookies : undefined };
}

/**
 * A route's work inside its audit scope (shared/audit/scope.ts): the actor is the caller, `scim` on a
 * SCIM route, and nobody on a grievance route (handling is recorded with the grievance id only).
 */
function auditedWork<T>(def: RouteDef<any, any, any>, ctx: RequestContext, work: () => Promise<T>): Promise<T> {
  const actorId = def.scim ? 'scim' : def.anonymous ? null : ctx.caller.userId;
  const requestId = ctx.event.requestContext?.requestId ?? randomUUID();
  return audited(
    def.audit!,
    { requestId, receivedAt: ctx.receivedAt, actorId, params: ctx.params },
    work,
    (result) => !(result instanceof HttpResponse) || result.status < 400,
  );
}

/**
 * Whether this request is an action the audit log records: its route declares one, the body asks for
 * it, and the actor may take it. A session route's caller who is no super admin is never the actor of an
 * admin action (what such a request stores is checked by the declaration's `createdWhen` too), unless
 * the route delegates the action (survey owners) and its own check let them through.
 */
function isAudited(def: RouteDef<any, any, any>, ctx: RequestContext): boolean {
  if (!def.audit || (def.audit.when && !def.audit.when(ctx.body))) return false;
  return !!def.scim || !!def.anonymous || !!def.audit.delegated || ctx.callerIfSignedIn?.role === 'super_admin';
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
export function route<Q extends z.ZodMiniType, B extends z.ZodMiniType, R extends z.ZodMiniType>(
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
    const work = () => fn(ctx as RequestContext<z.output<Q>, z.output<B>>);
    const result = isAudited(def, ctx) ? await auditedWork(def, ctx, work) : await work();
    return toResponse(def, result, ctx.headers['accept-encoding']);
  };
  // Idempotency wraps the work itself, inside every middleware (see idempotency.ts for why).
  // middy's own early timeout covers only the route's function; withDeadline covers the whole request.
  const handler = instrument(
    middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(options.idempotency?.(def, base) ?? base, {
      timeoutEarlyInMillis: 0,
    }),
    def.area,
  ).use(routeMiddlewares(def, options));
  return withDeadline(def, handler as unknown as LambdaHandler);
}
