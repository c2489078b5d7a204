import type * as z from 'zod';
import type { RouteDef } from '../api/route-def.ts';
import { parseMultipart } from './multipart.ts';
import { type LambdaHandler, type RouteHandler, type RouteOptions, route } from './route.ts';

/**
 * `route` for the upload routes (a definition with `multipart`): the only handlers that import the
 * multipart parser, so busboy stays out of every other function's bundle (cold start size).
 */
export function uploadRoute<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  def: RouteDef<Q, B, R>,
  fn: RouteHandler<Q, B, R>,
  options: Omit<RouteOptions, 'parseMultipart'> = {},
): LambdaHandler {
  return route(def, fn, { ...options, parseMultipart });
}
