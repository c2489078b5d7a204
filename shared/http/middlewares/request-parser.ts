import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AnyRoute } from '../../api/route-def.ts';
import type { RequestContext } from '../context.ts';
import { badRequest, HttpError } from '../errors.ts';
import type { parseMultipart } from '../multipart.ts';
import { parseRawQuery, parseWith } from '../validation.ts';

const rawBody = (event: APIGatewayProxyEventV2): Buffer | null => {
  if (event.body === undefined || event.body === null || event.body === '') return null;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
};

const isJson = (ct: string | undefined) => !ct || /^application\/([\w.+-]+\+)?json\b/i.test(ct.trim());

/**
 * Parses and validates the query (from `rawQueryString`, so repeats show) and the body against the
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
    const query = parseRawQuery(event.rawQueryString);
    if (def.query) ctx.query = parseWith(def.query, query, 'query');
    else if (Object.keys(query).length > 0)
      throw badRequest([`unknown query parameter: ${Object.keys(query).join(', ')}`]);

    const bytes = rawBody(event);
    const contentType = event.headers?.['content-type'];
    if (def.multipart && multipart) {
      if (!bytes) throw badRequest(['file: a part named file is required']);
      ctx.files = await multipart(bytes, contentType, def.multipart.maxBytes);
      return;
    }
    let parsed: unknown;
    if (bytes) {
      if (!isJson(contentType)) throw new HttpError(415, 'Send the body as application/json.');
      try {
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch {
        throw badRequest('The request body is not valid JSON.');
      }
    }
    if (def.body) {
      ctx.body = parseWith(def.body, parsed ?? {}, 'body');
    } else if (
      parsed !== undefined &&
      !(parsed && typeof parsed === 'object' && !Array.isArray(parsed) && Object.keys(parsed).length === 0)
    ) {
      throw badRequest(['this route takes no request body']);
    }
  },
});
