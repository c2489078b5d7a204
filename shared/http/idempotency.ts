import { createHash } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyInconsistentStateError,
  IdempotencyItemNotFoundError,
  IdempotencyPersistenceLayerError,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { AnyRoute } from '../api/route-def.ts';
import { type AnswerSealing, type IdempotentRequest, TableIdempotencyStore } from '../db/idempotency-store.ts';
import { logger } from '../observability/logger.ts';
import type { RequestContext } from './context.ts';
import { BadRequestError, ConflictError, UnprocessableContentError } from './errors.ts';
import { idempotencyKeyTag, requestFingerprint } from './idempotency-keys.ts';

/** The request header (API Gateway hands headers over lower-case, so matching is case-insensitive). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on an answer that is the stored first outcome rather than a new execution. */
export const REPLAYED_HEADER = 'idempotent-replayed';
/** How long a first outcome is kept and replayed. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** 1–255 printable ASCII characters (a UUID is the usual choice). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

type Invocation = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** Plain objects with their keys sorted, so a retry that orders its fields differently is the same request. */
const canonical = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, canonical(o[k])]),
    );
  }
  return v;
};

/**
 * What makes two requests "the same" for one key: method, path (a key reused on another path is
 * another request), query and the validated body or uploaded files. Validated rather than raw bytes,
 * so a retry with another multipart boundary or field order still matches.
 */
function fingerprint(def: AnyRoute, ctx: RequestContext): string {
  const files = ctx.files.map((f) => ({
    field: f.field,
    filename: f.filename,
    mimeType: f.mimeType,
    sha256: createHash('sha256').update(f.data).digest('base64'),
  }));
  const request = { method: def.method, path: ctx.event.rawPath, query: ctx.query, body: ctx.body ?? null, files };
  return requestFingerprint(JSON.stringify(canonical(request)));
}

/** Powertools' outcomes as the common error body: 422 for another request under the key, 409 while it runs. */
function toHttpError(err: unknown): unknown {
  if (err instanceof IdempotencyValidationError) {
    return new UnprocessableContentError(
      'This Idempotency-Key was already used for another request (another path or body); send a new key.',
    );
  }
  if (
    err instanceof IdempotencyAlreadyInProgressError ||
    err instanceof IdempotencyInconsistentStateError ||
    err instanceof IdempotencyItemNotFoundError
  ) {
    return new ConflictError(
      'A request with this Idempotency-Key is still being processed; retry when it has finished.',
    );
  }
  // The table failed: answer as for any failing dependency.
  if (err instanceof IdempotencyPersistenceLayerError && err.cause) return err.cause;
  return err;
}

/**
 * Makes a creating route's execution idempotent per (caller, `Idempotency-Key`) with Powertools'
 * idempotency utility over the table (db/idempotency-store.ts). Runs as the middy handler, after
 * session and validation (a 401 or 400 stores nothing) and before the after-middlewares, so a replay
 * still gets CORS headers and its access-log line (a Powertools middleware's early return would skip
 * them). Its record follows the work, not the answer:
 * - the work returns: the answer is stored and replayed to retries with the same request for 24 h;
 * - the work throws: the record is deleted and a retry runs again. Errors are not replayed: a 4xx
 *   refusal wrote nothing, and a failing dependency is meant to fail before anything is written
 *   (a failure after a commit would be repeated by the retry: docs/data-model.md, Idempotency);
 * - the answer was given up on (a gateway or wrapper timeout) while the work goes on: the record stays
 *   in progress (retries answer 409) until the work stores its answer or the function's deadline passes.
 * Without the header the route behaves as before.
 */
export function idempotent(def: AnyRoute, invoke: Invocation, sealing?: AnswerSealing): Invocation {
  if (!def.idempotent) return invoke;
  // An anonymous route's answers are sealed with the sealing its handler passes in (the grievance
  // area's): imported here, it would put the grievance key in every creating function.
  if (def.anonymous && !sealing) throw new Error(`${def.name}: an anonymous route needs its answers' sealing`);
  const store = new TableIdempotencyStore(def.anonymous ? sealing : undefined);
  return async (event, context) => {
    const key = event.headers?.[IDEMPOTENCY_HEADER];
    if (key === undefined) return invoke(event, context);
    if (!IDEMPOTENCY_KEY_PATTERN.test(key))
      throw new BadRequestError([`${IDEMPOTENCY_HEADER}: must be 1 to 255 printable ASCII characters`]);
    const ctx = (context as unknown as { ctx: RequestContext }).ctx;
    const request: IdempotentRequest = {
      keyTag: idempotencyKeyTag(ctx.caller.userId, key),
      fingerprint: fingerprint(def, ctx),
    };
    const config = new IdempotencyConfig({
      payloadValidationJmesPath: 'fingerprint',
      expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
      hashFunction: 'sha256',
    });
    // The in-progress mark lasts until this function's deadline: after it, a retry may run again.
    config.registerLambdaContext(context);
    let executed: { response: APIGatewayProxyStructuredResultV2 } | undefined;
    const run = makeIdempotent(
      async (_request: IdempotentRequest) => {
        executed = { response: await invoke(event, context) };
        return executed.response as never;
      },
      { persistenceStore: store, config, dataIndexArgument: 0 },
    );
    try {
      const response = (await run(request)) as APIGatewayProxyStructuredResultV2;
      if (executed) return response;
      return { ...response, headers: { ...response.headers, [REPLAYED_HEADER]: 'true' } };
    } catch (err) {
      if (executed) {
        // The work is done; only storing its answer failed. Answer it: a retry then sees 409 until the
        // deadline, then runs again, which beats reporting a failure for something that happened.
        logger.warn('idempotency record not completed', { route: def.name, error: err as Error });
        return executed.response;
      }
      throw toHttpError(err);
    }
  };
}
