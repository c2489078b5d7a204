import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AnyRoute } from '../../api/route-def.ts';
import type { RequestContext } from '../context.ts';
import { BadRequestError, NotFoundError, UnsupportedMediaTypeError } from '../errors.ts';
import type { parseMultipart } from '../multipart.ts';
import { parseRawQuery, parseWith } from '../validation.ts';

const rawBody = (event: APIGatewayProxyEventV2): Buffer | null => {
  if (event.body === undefined || event.body === null || event.body === '') return null;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
};

const isJson = (ct: string | undefined) => !ct || /^application\/([\w.+-]+\+)?json\b/i.test(ct.trim());

/**
 * No identifier of the service comes near this (UUIDs, sortable ids, file keys, push tokens of at most
 * 500 characters), and DynamoDB refuses keys over 2,048 bytes (1,024 for sort keys) with a
 * ValidationException: a longer path parameter names nothing, which is a 404 decided here.
 */
export const MAX_PATH_PARAMETER_BYTES = 512;

/** Made on the first body, not at load: a fatal UTF-8 decoder costs a cold start several milliseconds. */
let utf8: InstanceType<typeof TextDecoder> | undefined;
/** A lone UTF-16 surrogate (`"\ud800"` in JSON) is not text; with the u flag a proper pair never matches. */
const LONE_SURROGATE = /\p{Cs}/u;
class NotWellFormed extends Error {}

/** JSON.parse of well-formed UTF-8 whose strings (keys included) are all well-formed Unicode; else a 400. */
function parseJsonBody(bytes: Buffer): unknown {
  let text: string;
  try {
    utf8 ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    text = utf8.decode(bytes);
  } catch {
    throw new BadRequestError('The request body is not valid UTF-8.');
  }
  try {
    return JSON.parse(text, (key, value) => {
      if (LONE_SURROGATE.test(key) || (typeof value === 'string' && LONE_SURROGATE.test(value)))
        throw new NotWellFormed();
      return value;
    });
  } catch (err) {
    if (err instanceof NotWellFormed)
      throw new BadRequestError('The request body contains an unpaired UTF-16 surrogate.');
    throw new BadRequestError('The request body is not valid JSON.');
  }
}

/**
 * Bounds the path parameters, parses and validates the query (from `rawQueryString`, so repeats show) and the body against the
 * route's schemas. Unknown parameters and fields are 400s; bad JSON is a 400, not a 500. The multipart
 * parser is handed in only by the upload routes (`uploadRoute`), so the other bundles leave it out.
 */
export const requestParser = (
  def: AnyRoute,
  multipart?: typeof parseMultipart,
): MiddlewareObj<APIGatewayProxyEventV2> => ({
  name: 'request-parser',
  before: async (request) => {
    const ctx = (request.internal as { ctx: RequestContext }).ctx;
    const event = request.event;
    for (const value of Object.values(ctx.params))
      if (Buffer.byteLength(value) > MAX_PATH_PARAMETER_BYTES) throw new NotFoundError();
    const query = parseRawQuery(event.rawQueryString);
    if (def.query) ctx.query = parseWith(def.query, query, 'query');
    else if (Object.keys(query).length > 0)
      throw new BadRequestError([`unknown query parameter: ${Object.keys(query).join(', ')}`]);

    const bytes = rawBody(event);
    const contentType = event.headers?.['content-type'];
    if (def.multipart && multipart) {
      if (!bytes) throw new BadRequestError(['file: a part named file is required']);
      ctx.files = await multipart(bytes, contentType, def.multipart.maxBytes);
      return;
    }
    let parsed: unknown;
    if (bytes) {
      if (!isJson(contentType)) {
        // A route that takes no body refuses any body (400); one that takes JSON names the media type (415).
        if (!def.body) throw new BadRequestError(['this route takes no request body']);
        throw new UnsupportedMediaTypeError('Send the body as application/json.');
      }
      parsed = parseJsonBody(bytes);
    }
    if (def.body) {
      // Only an absent body stands for `{}`; a JSON `null` is a body, and not an object.
      ctx.body = parseWith(def.body, parsed === undefined ? {} : parsed, 'body');
    } else if (
      parsed !== undefined &&
      !(parsed && typeof parsed === 'object' && !Array.isArray(parsed) && Object.keys(parsed).length === 0)
    ) {
      throw new BadRequestError(['this route takes no request body']);
    }
  },
});
