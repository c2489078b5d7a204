import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { HttpResponse } from './http-response.ts';

/**
 * A plain-array answer that may continue (decisions §4, time-bounded lists): when `nextCursor` is set,
 * the answer carries `Link: <the same request with cursor=…>; rel="next"` (RFC 8288), the request's own
 * path and parameters with only `cursor` replaced; the body stays the array.
 */
export function nextLink(event: Pick<APIGatewayProxyEventV2, 'rawPath' | 'rawQueryString'>, cursor: string): string {
  const params = new URLSearchParams(event.rawQueryString ?? '');
  params.set('cursor', cursor);
  return `<${event.rawPath}?${params.toString()}>; rel="next"`;
}

export function pagedArray(
  event: Pick<APIGatewayProxyEventV2, 'rawPath' | 'rawQueryString'>,
  status: number,
  items: unknown[],
  nextCursor: string | null,
): HttpResponse {
  return new HttpResponse(status, items, nextCursor ? { link: nextLink(event, nextCursor) } : {});
}
