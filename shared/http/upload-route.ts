import type { RouteDef } from '../api/route-def.ts';
import type * as z from '../util/zod.ts';
import { parseMultipart } from './multipart.ts';
import { type LambdaHandler, type RouteHandler, type RouteOptions, route } from './route.ts';

/**
 * `route` for the upload routes (a definition with `multipart`): the only handlers that import the
 * multipart parser, so busboy stays out of every other function's bundle (cold start size).
 */
export function uploadRoute<Q extends z.ZodMiniType, B extends z.ZodMiniType, R extends z.ZodMiniType>(
  def: RouteDef<Q, B, R>,
  fn: RouteHandler<Q, B, R>,
  options: Omit<RouteOptions, 'parseMultipart'> = {},
): LambdaHandler {
  return route(def, fn, { ...options, parseMultipart });
}
