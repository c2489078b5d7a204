import type { RouteDef } from '../api/route-def.ts';
import { SCIM_CONTENT_TYPE, ScimError } from '../scim/errors.ts';
import { isScimToken } from '../scim/token.ts';
import type * as z from '../util/zod.ts';
import type { RequestContext } from './context.ts';
import { rawReply } from './http-response.ts';
import { type LambdaHandler, route } from './route.ts';

/** A SCIM answer: the body as `application/scim+json` with its status. */
export const scimReply = (body: unknown, status = 200) =>
  rawReply(status === 204 ? '' : JSON.stringify(body), SCIM_CONTENT_TYPE, {}, status);

/** The SCIM root URL the client called, for `meta.location`. */
export const scimBase = (req: RequestContext) => {
  const host = req.headers.host ?? 'localhost';
  return `${req.secure ? 'https' : 'http'}://${host}${req.event.rawPath.replace(/\/scim\/v2\/.*$/, '/scim/v2')}`;
};

/**
 * Wraps a SCIM route: the route table declares it `public` (no member session), and the SCIM token is
 * checked here (401 without it); every refusal of a SCIM route is answered in SCIM's error body
 * (shared/http/middlewares/http-errors.ts). The token grants nothing else: it is not a session, so every
 * other route answers 401 to it.
 */
export function scimRoute<Q extends z.ZodMiniType, B extends z.ZodMiniType, R extends z.ZodMiniType>(
  def: RouteDef<Q, B, R>,
  fn: (req: RequestContext<z.output<Q>, z.output<B>>, base: string) => Promise<unknown>,
): LambdaHandler {
  return route(def, async (req) => {
    if (!isScimToken(req.headers.authorization)) throw new ScimError(401, 'The SCIM bearer token is missing or wrong.');
    return scimReply(await fn(req, scimBase(req)), def.status);
  });
}
