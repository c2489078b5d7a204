import { createHash } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { API_PREFIX, type PublicCache } from '../../api/route-def.ts';

/**
 * The answers of the public website routes (`/api/v1/public/*`, routes with `cache` in the route
 * table): cacheable by browsers and the edge, and readable by scripts of any origin.
 *
 * CORS here is "any origin, no credentials": a website's page may read them, but they carry no
 * session, so allowing every origin opens nothing. The signed-in routes keep their own rules
 * (`ALLOWED_ORIGINS` with credentials, cors.ts), so listing the website's origin there is never
 * needed.
 */
export const PUBLIC_PATH_PREFIX = `${API_PREFIX}/public/`;

const PUBLIC_CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'etag',
} as const;

/** The preflight of a public path (answered by the catch-all route, like every preflight). */
export const publicPreflightHeaders = (): Record<string, string> => ({
  ...PUBLIC_CORS,
  'access-control-allow-methods': 'GET,HEAD,OPTIONS',
  'access-control-allow-headers': 'if-none-match,if-modified-since',
  'access-control-max-age': '600',
});

export const cacheControl = (c: PublicCache) =>
  `public, max-age=${c.maxAge}, s-maxage=${c.sMaxAge}, stale-while-revalidate=${c.staleWhileRevalidate}`;

/** A strong validator: the answer's bytes, hashed (the same bytes always give the same tag). */
export const strongEtag = (body: string) => `"${createHash('sha256').update(body).digest('base64url')}"`;

/** `If-None-Match` matches (weak comparison, as RFC 9110 asks for this header; `*` matches any). */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/**
 * Adds caching and public CORS. A success gets `Cache-Control` and `ETag`, and becomes a bodiless
 * `304` when the client already holds it; errors stay `no-store` (a post that comes back must not be
 * hidden behind a cached 404).
 */
export const publicAnswers = (
  cache: PublicCache,
): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => {
  const add = (request: {
    event: APIGatewayProxyEventV2;
    response: APIGatewayProxyStructuredResultV2 | null | undefined;
  }) => {
    const res = request.response;
    if (!res) return;
    const headers: Record<string, string | number | boolean> = { ...(res.headers ?? {}), ...PUBLIC_CORS };
    if (res.statusCode === 200 && typeof res.body === 'string') {
      const etag = strongEtag(res.body);
      headers.etag = etag;
      headers['cache-control'] = cacheControl(cache);
      if (noneMatch(request.event.headers?.['if-none-match'], etag)) {
        delete headers['content-type'];
        request.response = { statusCode: 304, headers, body: '' };
        return;
      }
    } else {
      headers['cache-control'] = 'no-store';
    }
    res.headers = headers;
  };
  return { name: 'public-answers', after: add, onError: add };
};
