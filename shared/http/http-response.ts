/**
 * What a handler may return instead of a plain body: another status, extra headers and cookies, raw
 * bytes, or a redirect. A plain value is the route's declared success body.
 */
export class HttpResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    readonly cookies: string[] = [],
    /** Raw bytes or text with their own content type (files, HTML). */
    readonly raw?: { data: Buffer | string; contentType: string },
  ) {}
}

export const reply = (
  status: number,
  body?: unknown,
  opts: { headers?: Record<string, string>; cookies?: string[] } = {},
) => new HttpResponse(status, body, opts.headers, opts.cookies);

export const rawReply = (
  data: Buffer | string,
  contentType: string,
  headers: Record<string, string> = {},
  status = 200,
) => new HttpResponse(status, undefined, headers, [], { data, contentType });

export const redirect = (location: string, headers: Record<string, string> = {}) =>
  new HttpResponse(302, undefined, { ...headers, location });
