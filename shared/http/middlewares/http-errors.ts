import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { logger } from '../../observability/logger.ts';
import { HttpError, reasonPhrase } from '../errors.ts';

export function errorResponse(
  status: number,
  message: string | string[],
  extraHeaders: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...extraHeaders },
    body: JSON.stringify({ statusCode: status, message, error: reasonPhrase(status) }),
  };
}

/**
 * Every failure becomes the common error body. HttpErrors are the client's; anything else is a bug:
 * logged with its stack and answered 500 without details.
 */
export const httpErrors = (): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => ({
  name: 'http-errors',
  onError: (request) => {
    const err = request.error;
    if (err instanceof HttpError) {
      request.response = errorResponse(err.statusCode, err.body, err.headers);
      return;
    }
    logger.error('unhandled error', { error: err as Error });
    request.response = errorResponse(500, 'Something went wrong on our side.');
  },
});
