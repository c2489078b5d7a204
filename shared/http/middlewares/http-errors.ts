import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AnyRoute } from '../../api/route-def.ts';
import { isDependencyUnavailable, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from '../../db/unavailable.ts';
import { logger } from '../../observability/logger.ts';
import { type ErrorBody, HttpError, reasonPhrase } from '../errors.ts';

export function errorResponse(
  status: number,
  message: string | string[],
  extraHeaders: Record<string, string> = {},
  code?: string,
): APIGatewayProxyStructuredResultV2 {
  const body: ErrorBody = { statusCode: status, message, error: reasonPhrase(status) };
  if (code) body.code = code;
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...extraHeaders },
    body: JSON.stringify(body),
  };
}

/** The answer when the table or the bucket is unavailable, throttling or too slow: retry shortly. */
export const unavailableResponse = (): APIGatewayProxyStructuredResultV2 =>
  errorResponse(503, UNAVAILABLE_MESSAGE, { 'retry-after': String(RETRY_AFTER_SECONDS) });

/**
 * The authentication routes add `code` to the common body, because better-auth's client reads its
 * errors as `{ code, message }` (README, "better-auth's client").
 */
const answersCode = (def: AnyRoute | undefined) => def?.area === 'auth';

/**
 * Every failure becomes the common error body. HttpErrors are the client's; a dependency that is
 * unavailable, throttling or timing out is a 503 with Retry-After; anything else is a bug: logged
 * with its stack and answered 500 without details.
 */
export function answerForError(err: unknown, def?: AnyRoute): APIGatewayProxyStructuredResultV2 {
  if (err instanceof HttpError)
    return errorResponse(err.statusCode, err.body, err.extra.headers, answersCode(def) ? err.code : undefined);
  if (isDependencyUnavailable(err)) {
    logger.warn('dependency unavailable', { error: err as Error });
    return unavailableResponse();
  }
  logger.error('unhandled error', { error: err as Error });
  return errorResponse(500, 'Something went wrong on our side.');
}

export const httpErrors = (
  def?: AnyRoute,
): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => ({
  name: 'http-errors',
  onError: (request) => {
    request.response = answerForError(request.error, def);
  },
});
