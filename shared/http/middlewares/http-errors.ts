import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AnyRoute } from '../../api/route-def.ts';
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

/**
 * The authentication routes add `code` to the common body, because better-auth's client reads its
 * errors as `{ code, message }` (README, "better-auth's client").
 */
const answersCode = (def: AnyRoute | undefined) => def?.area === 'auth';

function unexpected(error: unknown): HttpError {
  logger.error('unhandled error', { error: error as Error });
  return new HttpError(500, 'Something went wrong on our side.');
}

/**
 * Every failure becomes the common error body. HttpErrors are the client's; anything else is a bug:
 * logged with its stack and answered 500 without details.
 */
export const httpErrors = (
  def?: AnyRoute,
): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => ({
  name: 'http-errors',
  onError: (request) => {
    const err = request.error instanceof HttpError ? request.error : unexpected(request.error);
    request.response = errorResponse(
      err.statusCode,
      err.body,
      err.extra.headers,
      answersCode(def) ? err.code : undefined,
    );
  },
});
