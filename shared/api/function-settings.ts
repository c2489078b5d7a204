import { type FunctionAccess, routeFunctionAccess } from './access-policy.ts';
import type { Schedule, StreamConsumer } from './background.ts';
import { type AnyRoute, handlerFile, type RouteAccess } from './route-def.ts';

/**
 * Each function's deployed settings, from the route table or the background list: what the CDK
 * stacks give the Lambda function and what the local runtime enforces for it (its access, the
 * timeout after which it is cut off, the memory its heap is compared with).
 */
export const DEFAULT_TIMEOUT_SECONDS = 10;
export const DEFAULT_MEMORY_MB = 512;
/** Every background function records what it did. */
export const DEFAULT_BACKGROUND_ACCESS: RouteAccess = { table: 'write' };
export const DEFAULT_BACKGROUND_TIMEOUT_SECONDS = 60;

export interface FunctionSettings extends FunctionAccess {
  /** The route's or background entry's name. */
  name: string;
  /** Project-relative handler module. */
  handler: string;
  timeoutSeconds: number;
  memoryMb: number;
}

export const routeSettings = (route: AnyRoute): FunctionSettings => ({
  name: route.name,
  handler: handlerFile(route),
  ...routeFunctionAccess(route),
  timeoutSeconds: route.timeout ?? DEFAULT_TIMEOUT_SECONDS,
  memoryMb: route.memory ?? DEFAULT_MEMORY_MB,
});

export const backgroundSettings = (entry: StreamConsumer | Schedule): FunctionSettings => ({
  name: entry.name,
  handler: entry.handler,
  access: entry.access ?? DEFAULT_BACKGROUND_ACCESS,
  timeoutSeconds: entry.timeout ?? DEFAULT_BACKGROUND_TIMEOUT_SECONDS,
  memoryMb: entry.memory ?? DEFAULT_MEMORY_MB,
});
