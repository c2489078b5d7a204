import { gzipSync } from 'node:zlib';

/**
 * Large JSON answers (the whole lists: `/admin/members`, `/org-chart`, attendance `employees`) are
 * sent gzip-compressed when the client accepts it (decisions §4: no answer may pass Lambda's 6 MB
 * response payload). Smaller answers go as they are.
 */
export const COMPRESS_FROM_BYTES = 256 * 1024;
/**
 * Lambda's response payload limit (6 MB) less room for the rest of the result (status, headers): an
 * answer whose result would pass it is refused rather than left to fail as a 500.
 */
export const MAX_BODY_BYTES = 6 * 1024 * 1024 - 64 * 1024;

/** Whether an `Accept-Encoding` header accepts gzip (`gzip` or `*`, unless given `q=0`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let gzip: boolean | undefined;
  let star: boolean | undefined;
  for (const part of header.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const ok = !q || Number(q.slice(2)) > 0;
    if (coding.trim() === 'gzip') gzip = ok;
    else if (coding.trim() === '*') star = ok;
  }
  return gzip ?? star ?? false;
}

/** The JSON text as the result carries it: gzip + base64 when accepted and large, else as it is. */
export function encodeBody(
  json: string,
  acceptEncoding: string | undefined,
): { body: string; isBase64Encoded: boolean; gzip: boolean } {
  if (Buffer.byteLength(json) < COMPRESS_FROM_BYTES || !acceptsGzip(acceptEncoding))
    return { body: json, isBase64Encoded: false, gzip: false };
  return { body: gzipSync(json).toString('base64'), isBase64Encoded: true, gzip: true };
}

/** The size the result's body takes in Lambda's payload (a JSON string: quotes and backslashes escaped). */
export const payloadBytes = (body: string) => Buffer.byteLength(JSON.stringify(body));
