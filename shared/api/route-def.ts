import type { AuditDeclaration } from '../audit/scope.ts';
import type * as z from '../util/zod.ts';
/** A kind of item a function writes: an entity declaration, by its partition key's template. */
export interface WriteTarget {
  readonly name: string;
  readonly keyTemplate: { pk: readonly unknown[] };
}

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';
/** public: no session; session: any signed-in person; super_admin: role read fresh on every request. */
export type Auth = 'public' | 'session' | 'super_admin';

/** What a route's function may touch when deployed; the CDK stack grants exactly this. */
export interface RouteAccess {
  /** DynamoDB actions on the table and its indexes (reads are always granted: every route resolves a session). */
  table?: 'read' | 'write';
  /**
   * With `table: 'write'`: every kind of item the function writes, by its entity declaration (its
   * own and what it writes for other areas: notifications, counters), so
   * the role may Put/Update/Delete only under those partition-key prefixes (`dynamodb:LeadingKeys`).
   * The session refresh and the idempotency record are added from the route's declaration. Absent:
   * the function may write anywhere in the table (docs/least-privilege.md, says why).
   */
  writes?: readonly WriteTarget[];
  /** Scans the table: the migrations runner and the data-rights worker (shared/data-rights/table-walk.ts); never a request path. */
  scan?: boolean;
  /**
   * Bucket key prefixes and what the function does with them. `erase` removes every version of an
   * object (the bucket is versioned): data rights' erasure only.
   */
  bucket?: { prefix: string; actions: ('read' | 'write' | 'delete' | 'erase')[] }[];
  sns?: boolean;
  ses?: boolean;
  /**
   * Signs public media URLs (shared/storage/public-urls.ts): deployed with a media signing key, the
   * function reads the private key secret and the edge stack's signing parameter.
   */
  publicMedia?: boolean;
  /**
   * With `publicMedia`: erases objects the distribution may have cached, so it invalidates them there
   * (cloudfront:CreateInvalidation; shared/storage/media-invalidation.ts).
   */
  invalidatesMedia?: boolean;
}

export interface PublicCache {
  maxAge: number;
  sMaxAge: number;
  staleWhileRevalidate: number;
}

/**
 * One route of the API: the single declaration that drives the CDK routes, the local runtime's API
 * emulation, request validation and the OpenAPI document. The handler lives at
 * `functions/<area>/<name>.ts` and exports `handler`.
 */
export interface RouteDef<
  Q extends z.ZodMiniType = z.ZodMiniType,
  B extends z.ZodMiniType = z.ZodMiniType,
  R extends z.ZodMiniType = z.ZodMiniType,
> {
  name: string;
  area: string;
  method: Method;
  /** Full path with `{param}` segments, e.g. `/api/v1/grievances/{grievanceId}`; `$default` for the catch-all. */
  path: string;
  auth: Auth;
  summary: string;
  /** A strict object of string-valued parameters (see query.ts); absent = no parameters allowed. */
  query?: Q;
  /** JSON body schema (a strict object); `multipart` for uploads; absent = no body expected. */
  body?: B;
  multipart?: { maxBytes: number };
  /** The JSON body may be omitted entirely (it then parses as `{}`). */
  bodyOptional?: boolean;
  /** The success status; `response` is its body schema (absent = empty body). */
  status: 200 | 201 | 204 | 302;
  response?: R;
  /** Other statuses the route documents (the common error body). */
  errors?: number[];
  /**
   * Grievance routes: the request neither writes nor logs anything keyed by the caller's plain
   * user id (no session refresh, no user id in log lines).
   */
  anonymous?: boolean;
  /**
   * A route that creates something: it honours the `Idempotency-Key` header (shared/http/idempotency.ts),
   * so a client's retry of a request whose answer it lost replays the first outcome instead of
   * creating a second one. The OpenAPI document describes the header and its 409 and 422.
   */
  idempotent?: boolean;
  /** Request headers the route reads besides the session's, as the OpenAPI document describes them. */
  headers?: { name: string; description: string; schema: Record<string, unknown> }[];
  /** Headers the success answer may carry (a list's `Link` to its next page), as the OpenAPI document describes them. */
  responseHeaders?: { name: string; description: string; schema: Record<string, unknown> }[];
  /**
   * A SCIM route (docs/scim.md): answers `application/scim+json`, and the statuses of `errors` in SCIM's
   * error body (shared/http/scim-route.ts) rather than the common one.
   */
  scim?: boolean;
  /** Answers through Lambda response streaming; kept out of the OpenAPI document. */
  streaming?: boolean;
  /** Serves raw bytes (files, the reference page) rather than JSON. */
  raw?: boolean;
  /** May answer `302` to a short-lived signed URL instead of the bytes (large files, videos). */
  redirects?: boolean;
  access?: RouteAccess;
  /**
   * The admin audit log (docs/audit-log.md): the action this route records, with its target, in the
   * same transaction as its first write. Every super-admin route that writes, and every SCIM route that
   * writes, declares one (test/audit/audit-log.test.ts walks the table).
   */
  audit?: AuditDeclaration;
  /**
   * A public GET whose answers anyone may cache (the website feed): `Cache-Control` with these ages
   * (seconds), a strong `ETag` and `304` on `If-None-Match`, `HEAD` beside `GET`, and CORS for any
   * origin without credentials (shared/http/middlewares/public-answers.ts).
   */
  cache?: PublicCache;
  /** Longer-running functions (uploads, image work). Seconds. */
  timeout?: number;
  memory?: number;
}

export type AnyRoute = RouteDef<any, any, any>;

export { API_PREFIX } from '../config/api-prefix.ts';

/**
 * A declaration of the route table (a route, a schema, a set of fields), built in place: every
 * top-level declaration of shared/api/routes/ and shared/api/schemas/ that calls anything is written
 * `declared(() => ...)` with esbuild's pure annotation (a `@__PURE__` block comment) before the call.
 * The value is the same, built at the same moment; the annotation lets esbuild leave out of a
 * function's bundle what that function never uses, so each function builds its own route's schemas
 * at a cold start, not every route of its area (docs/cold-starts.md). A test holds the annotation
 * (test/infra/bundle-contents.test.ts).
 */
export const declared = <T>(make: () => T): T => make();

/** Declares a route; the identity function keeps the literal types for the handler. */
export function defineRoute<Q extends z.ZodMiniType, B extends z.ZodMiniType, R extends z.ZodMiniType>(
  def: RouteDef<Q, B, R>,
): RouteDef<Q, B, R> {
  return def;
}

/** `/api/v1/people/{userId}` → the handler's file, relative to the project root. */
export const handlerFile = (r: Pick<AnyRoute, 'area' | 'name'>) => `functions/${r.area}/${r.name}.ts`;

/** The HTTP API route key (`GET /api/v1/people/{userId}`). */
export const routeKey = (r: Pick<AnyRoute, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** The methods a route answers: a cacheable GET answers HEAD too (the CDK routes and the local gateway). */
export const routeMethods = (r: Pick<AnyRoute, 'method' | 'cache'>): Method[] =>
  r.cache && r.method === 'GET' ? ['GET', 'HEAD'] : [r.method];
