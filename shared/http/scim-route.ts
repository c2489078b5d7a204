import type * as z from 'zod';
import type { RouteDef } from '../api/route-def.ts';
import { isDependencyUnavailable } from '../db/unavailable.ts';
import { DomainError } from '../errors.ts';
import { ScimError } from '../scim/errors.ts';
import { isScimToken } from '../scim/token.ts';
import type { RequestContext } from './context.ts';
import { HttpError } from './errors.ts';
import { rawReply } from './http-response.ts';
import { toHttpError } from './middlewares/http-errors.ts';
import { type LambdaHandler, route } from './route.ts';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/** A SCIM answer: the body as `application/scim+json` with its status. */
export const scimReply = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  rawReply(status === 204 ? '' : JSON.stringify(body), SCIM_CONTENT_TYPE, headers, status);

/**
 * A refusal in SCIM's error body: a `ScimError` as it is; the domain's refusals, the service's HTTP
 * errors and an unavailable dependency (503 with its `Retry-After`) with their status and sentence.
 * Anything else is a bug, left to the common handling (500, logged).
 */
function scimRefusal(err: unknown) {
  if (err instanceof ScimError) return scimReply(err.body(), err.status);
  if (!(err instanceof DomainError || err instanceof HttpError || isDependencyUnavailable(err))) throw err;
  const h = toHttpError(err);
  const scimType = h.statusCode === 400 ? 'invalidValue' : undefined;
  return scimReply(new ScimError(h.statusCode, h.message, scimType).body(), h.statusCode, h.headers);
}

/** The SCIM root URL the client called, for `meta.location`. */
export const scimBase = (req: RequestContext) => {
  const host = req.headers.host ?? 'localhost';
  return `${req.secure ? 'https' : 'http'}://${host}${req.event.rawPath.replace(/\/scim\/v2\/.*$/, '/scim/v2')}`;
};

/**
 * Wraps a SCIM route: the route table declares it `public` (no member session), and the SCIM token is
 * checked here (401 in SCIM's error body without it); a refusal is answered in SCIM's error body. The token
 * grants nothing else: it is not a session, so every other route answers 401 to it.
 */
export function scimRoute<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  def: RouteDef<Q, B, R>,
  fn: (req: RequestContext<z.output<Q>, z.output<B>>, base: string) => Promise<unknown>,
): LambdaHandler {
  return route(def, async (req) => {
    try {
      if (!isScimToken(req.headers.authorization))
        throw new ScimError(401, 'The SCIM bearer token is missing or wrong.');
      return scimReply(await fn(req, scimBase(req)), def.status);
    } catch (err) {
      return scimRefusal(err);
    }
  });
}
