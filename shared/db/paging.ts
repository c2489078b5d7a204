import { type Item, type QueryOptions, queryPage } from './table.ts';

/**
 * One page of a query through a declaration (`X.query(where, page({ limit, cursor }))`), with its sealed
 * cursor (cursor.ts). Kept out of entity.ts so that only the functions that page carry the cursor code,
 * and so read the cursor secret (a function gets the secrets its bundle reads: infra/build/bundle.ts).
 */
export interface Pager {
  run: <T extends Item>(options: QueryOptions) => Promise<{ items: T[]; nextCursor: string | null }>;
}

/** A page of at most `limit` items after `cursor`; `scope` binds the cursor (defaults to the query itself). */
export const page = (p: { limit: number; cursor?: string; scope?: string }): Pager => ({
  run: <T extends Item>(options: QueryOptions) => queryPage<T>({ ...options, ...p }),
});
