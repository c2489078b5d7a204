import { checkEntry, PRESENT, updateEntry } from './entity.ts';
import type { Key } from './keys.ts';
import type { TransactItem } from './table.ts';

/**
 * A counter change inside a transaction: counts live on items and move only together with the
 * change they count, so concurrent requests never lose an update and lists never count items.
 */
export function addToCounter(
  key: Key,
  field: string,
  delta: number,
  opts: { mustExist?: boolean; entity?: string } = {},
): TransactItem {
  // A counter item created by its first ADD is stamped with its `entity`, as every item carries one.
  return updateEntry(key, {
    UpdateExpression: opts.entity ? 'ADD #f :d SET #entity = :entity' : 'ADD #f :d',
    ExpressionAttributeNames: { '#f': field, ...(opts.entity ? { '#entity': 'entity' } : {}) },
    ExpressionAttributeValues: { ':d': delta, ...(opts.entity ? { ':entity': opts.entity } : {}) },
    ...(opts.mustExist ? PRESENT : {}),
  });
}

/** Asserts that an item exists, inside a transaction (a reference that must not dangle). */
export const mustExist = (key: Key): TransactItem => checkEntry(key, PRESENT);
