import { BadRequestError } from './errors.ts';

/** An HTTP date (RFC 9110: `Wed, 25 Nov 2026 09:30:00 GMT`, or its obsolete forms). */
const HTTP_DATE =
  /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT|\w+, \d{2}-\w{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|\w{3} \w{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * A conditional request's date header (`If-Unmodified-Since`), or undefined when absent. A malformed
 * one is a 400 rather than ignored: the client asked for a condition, and going ahead without it would
 * do what it meant to prevent.
 */
export function httpDateHeader(headers: Record<string, string | undefined>, name: string): Date | undefined {
  const raw = headers[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const ms = HTTP_DATE.test(raw) ? Date.parse(raw) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new BadRequestError(`${name} must be an HTTP date, e.g. ${new Date(0).toUTCString()}`);
  return new Date(ms);
}
