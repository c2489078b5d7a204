/**
 * zod, as every module of the project imports it: `import * as z from '<path>/util/zod.ts'`.
 *
 * It is zod's tree-shakable API (`zod/mini`): a function bundle keeps only the schema kinds and checks
 * it uses, and building a schema does not install the classic API's dozens of methods on every
 * instance. Both were most of what a route's cold import cost above the one-`GetItem` floor
 * (docs/cold-starts.md). The classic API loads the English messages by itself; `zod/mini` does not,
 * so they are loaded here, once, before any module can parse: validation answers read the same.
 */

import { clone, config, type core, globalRegistry } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';

/**
 * A copy of `schema` carrying `metadata` (an `id` names it in the OpenAPI and AsyncAPI documents), as
 * the classic API's `.meta()` made it. Not `.check(z.meta(…))`: a check travels with every later copy
 * (an `extend`, another check) and registers the same `id` on each, which the documents refuse.
 */
export function withMeta<T extends core.$ZodType>(schema: T, metadata: core.GlobalMeta): T {
  const copy = clone(schema);
  globalRegistry.add(copy, metadata);
  return copy;
}

/** A copy of `schema` with this description (the classic API's `.describe()`; see `withMeta`). */
export function described<T extends core.$ZodType>(schema: T, description: string): T {
  return withMeta(schema, { description });
}
