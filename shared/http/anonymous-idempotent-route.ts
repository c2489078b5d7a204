import type { RouteDef } from '../api/route-def.ts';
import { seal, unseal } from '../grievances/anonymity.ts';
import type * as z from '../util/zod.ts';
import { idempotent } from './idempotency.ts';
import { type LambdaHandler, type RouteHandler, route } from './route.ts';

/**
 * `idempotentRoute` for the creating grievance routes: their stored answers are sealed under the
 * grievance key. A module of its own, so that only these handlers' bundles hold that key (the key
 * tags themselves are under the idempotency key, like every other route's).
 */
export function anonymousIdempotentRoute<Q extends z.ZodMiniType, B extends z.ZodMiniType, R extends z.ZodMiniType>(
  def: RouteDef<Q, B, R>,
  fn: RouteHandler<Q, B, R>,
): LambdaHandler {
  return route(def, fn, { idempotency: (d, invoke) => idempotent(d, invoke, { seal, unseal }) });
}
