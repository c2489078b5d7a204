import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { env } from '../../config/env.ts';

export const originAllowed = (origin: string | undefined): boolean =>
  !!origin && (env.allowedOrigins.includes('*') || env.allowedOrigins.includes(origin));

/** Headers that let the web client's origins call with credentials and read the rotated token (and a list's next page, `Link`). */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (!originAllowed(origin)) return {};
  return {
    'access-control-allow-origin': origin!,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'set-auth-token,idempotent-replayed,link',
    vary: 'Origin',
  };
}

/** Preflight answer (served by the catch-all route for OPTIONS). */
export function preflightHeaders(origin: string | undefined): Record<string, string> {
  if (!originAllowed(origin)) return {};
  return {
    ...corsHeaders(origin),
    'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,OPTIONS',
    'access-control-allow-headers': 'authorization,content-type,idempotency-key,last-event-id,x-requested-with',
    'access-control-max-age': '600',
  };
}

/**
 * Adds the CORS headers to every answer, errors included. Not `@middy/http-cors`: it sends
 * `Access-Control-Allow-Credentials` to every origin, allowed or not, while here a disallowed origin
 * gets no CORS header at all; and the same headers go on answers made outside a middy chain (the
 * request deadline's 503, the catch-all's preflight), which `corsHeaders` serves to all.
 */
export const cors = (): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => {
  const add = (request: {
    event: APIGatewayProxyEventV2;
    response: APIGatewayProxyStructuredResultV2 | null | undefined;
  }) => {
    if (!request.response) return;
    request.response.headers = { ...(request.response.headers ?? {}), ...corsHeaders(request.event.headers?.origin) };
  };
  return { name: 'cors', after: add, onError: add };
};
