import type { RouteDef } from '../api/route-def.ts';
import type * as z from '../util/zod.ts';
import { idempotent } from './idempotency.ts';
import { type LambdaHandler, type RouteHandler, route } from './route.ts';

/**
 * `route` for the creating routes (a definition with `idempotent`): the only handlers that carry the
 * `Idempotency-Key` support, and with it the idempotency secret its record keys are an HMAC under, so
 * every other function's role is granted no secret it does not use (docs/deployment.md, Secrets).
 */
export function idempotentRoute<Q extends z.ZodMiniType, B extends z.ZodMiniType, R extends z.ZodMiniType>(
  def: RouteDef<Q, B, R>,
  fn: RouteHandler<Q, B, R>,
): LambdaHandler {
  return route(def, fn, { idempotency: idempotent });
}
