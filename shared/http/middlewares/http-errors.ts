import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AnyRoute } from '../../api/route-def.ts';
import { isDependencyUnavailable, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from '../../db/unavailable.ts';
import { DomainError, type DomainErrorKind } from '../../errors.ts';
import { logger } from '../../observability/logger.ts';
import { SCIM_CONTENT_TYPE, ScimError, scimRefusal } from '../../scim/errors.ts';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  HttpError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../errors.ts';

/** Each domain refusal's answer: the only place the domain's errors meet HTTP statuses. */
const ANSWERS: Record<DomainErrorKind, (e: DomainError) => HttpError> = {
  invalid: (e) => new BadRequestError(e.reasons, { code: e.details.code }),
  unauthenticated: (e) => new UnauthorizedError(e.reasons, { code: e.details.code }),
  forbidden: (e) => new ForbiddenError(e.reasons, { code: e.details.code }),
  'not-found': (e) => new NotFoundError(e.reasons, { code: e.details.code }),
  conflict: (e) => new ConflictError(e.reasons, { code: e.details.code }),
  'too-large': (e) => new PayloadTooLargeError(e.reasons, { code: e.details.code }),
  'too-many': (e) => new TooManyRequestsError(e.reasons, e.details.retryAfterSeconds ?? 1, { code: e.details.code }),
  unavailable: (e) =>
    new ServiceUnavailableError(e.reasons, e.details.retryAfterSeconds ?? RETRY_AFTER_SECONDS, {
      code: e.details.code,
    }),
};

/** The answer when the table or the bucket is unavailable, throttling or too slow: retry shortly. */
export const dependencyUnavailable = () => new ServiceUnavailableError(UNAVAILABLE_MESSAGE, RETRY_AFTER_SECONDS);

/**
 * Every failure as an HttpError: HttpErrors as they are, the domain's refusals by kind, a dependency
 * that is unavailable, throttling or timing out as a 503 with Retry-After; anything else is a bug:
 * logged with its stack and answered 500 without details.
 */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof DomainError) return ANSWERS[err.kind](err);
  if (isDependencyUnavailable(err)) {
    logger.warn('dependency unavailable', { error: err as Error });
    return dependencyUnavailable();
  }
  logger.error('unhandled error', { error: err as Error });
  return new InternalServerError();
}

/**
 * The authentication routes add `code` to the common body, because better-auth's client reads its
 * errors as `{ code, message }` (docs/client-developers.md, "better-auth's client").
 */
const answersCode = (def: AnyRoute | undefined) => def?.area === 'auth';

/**
 * The answer to a failure, in the common error body; a SCIM route's in SCIM's (RFC 7644 §3.12), its input
 * checks and an unavailable dependency's 503 included (docs/scim.md).
 */
export function answerForError(err: unknown, def?: AnyRoute): APIGatewayProxyStructuredResultV2 {
  if (def?.scim && err instanceof ScimError)
    return { statusCode: err.status, headers: { 'content-type': SCIM_CONTENT_TYPE }, body: JSON.stringify(err.body()) };
  const h = toHttpError(err);
  if (!def?.scim) return h.toResponse(answersCode(def));
  return {
    statusCode: h.statusCode,
    headers: { 'content-type': SCIM_CONTENT_TYPE, ...h.headers },
    body: JSON.stringify(scimRefusal(h.statusCode, h.message)),
  };
}

/** Turns whatever a request's handling threw into its answer (the only place errors become answers). */
export const httpErrors = (
  def?: AnyRoute,
): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => ({
  name: 'http-errors',
  onError: (request) => {
    request.response = answerForError(request.error, def);
  },
});
