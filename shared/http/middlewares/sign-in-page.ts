import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** A browser navigating (it asks for HTML first); API clients ask for JSON or anything. */
export const wantsHtml = (accept: string | undefined) => !!accept && /(^|,)\s*text\/html\b/i.test(accept);

/**
 * Pages a person opens in a browser (the reference at `/api/v1/docs`) answer their `401` as a small
 * HTML page with a sign-in form instead of the JSON error body, when the browser asks for HTML; the
 * status stays 401 and JSON clients still get the common error body. Runs after the error
 * middleware, on the answer it made.
 */
export const signInPage = (
  page: () => string,
): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => ({
  name: 'sign-in-page',
  onError: (request) => {
    if (request.response?.statusCode !== 401 || !wantsHtml(request.event.headers?.accept)) return;
    request.response = {
      statusCode: 401,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      body: page(),
    };
  },
});
