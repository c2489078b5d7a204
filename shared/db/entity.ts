import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Key } from './keys.ts';
import type { Item, TransactItem } from './table.ts';
import { type IndexName, indexKeys } from './table-definition.ts';

/**
 * Typed transaction entries, and entities declared once (after ElectroDB's entity model, without its
 * weight in every bundle): an entity names its `entity` attribute, its key (built in `keys.ts`), the
 * index attributes derived from its item (sparse ones answer `undefined` while the item is out of the
 * index) and, through its type parameter, the item's shape. Every write of an entity's item goes
 * through its builders, so the stored key, `entity` and index attributes cannot drift from the
 * declaration. `docs/data-model.md` lists every declared entity (checked by test/foundation/data-model.test.ts).
 */

/** A condition on the item a write addresses (the shape `putItem` takes as well). */
export type Condition = Pick<
  UpdateCommandInput,
  'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
>;
/** An update's expression and, optionally, its condition. */
export type UpdateParts = Condition & { UpdateExpression: string };

export const putEntry = (item: Item, condition: Condition = {}): TransactItem => ({
  Put: { Item: item, ...condition },
});
export const updateEntry = (key: Key, parts: UpdateParts): TransactItem => ({ Update: { Key: key, ...parts } });
export const checkEntry = (key: Key, condition: Condition & { ConditionExpression: string }): TransactItem => ({
  ConditionCheck: { Key: key, ...condition },
});
export const deleteEntry = (key: Key, condition: Condition = {}): TransactItem => ({
  Delete: { Key: key, ...condition },
});

/** Only an item that does not exist yet (a create, a claim). */
export const ABSENT: Condition = { ConditionExpression: 'attribute_not_exists(pk)' };
/** Only an item that exists (a reference that must not dangle). */
export const PRESENT = { ConditionExpression: 'attribute_exists(pk)' } as const;

/**
 * One index an entity's items appear in: its partition and sort key for an item. A sparse index answers
 * `undefined` for the partition key of an item that is not in it (the sort key may stay).
 */
export interface EntityIndex<T> {
  index: IndexName;
  pk: (item: T) => string | undefined /** Absent when something else moves the sort key (a counter kept with ADD). */;
  sk?: (item: T) => string | number | undefined;
}

/** Attributes the entity builders add: everything except what the item's own fields say. */
type Derived = 'pk' | 'sk' | 'entity';
// Key remapping keeps the named fields of item types that also carry an index signature (UserItem).
export type Fields<T> = { [P in keyof T as P extends Derived ? never : P]: T[P] };

export interface EntityDefinition<T extends { entity: string }, A extends unknown[]> {
  name: T['entity'];
  /** The key, from `keys.ts`. */
  key: (...args: A) => Key;
  /** The key arguments of an item. */
  keyOf: (item: Fields<T>) => A;
  indexes?: EntityIndex<Fields<T>>[];
  /** Grievance items: kept out of the change feed (see keys.ts, ANON_ATTRIBUTE). */
  anon?: boolean;
}

export interface Entity<T extends { entity: string }, A extends unknown[]> {
  name: T['entity'];
  key: (...args: A) => Key;
  /** Every index attribute of the item; `undefined` = to be removed (the item left a sparse index). */
  indexAttributes: (item: Fields<T>) => Record<string, string | number | undefined>;
  /** The item as stored: its fields, key, `entity` and the index attributes it is in. */
  item: (fields: Fields<T>) => T;
  /** Writes the whole item (stored form), under an optional condition. */
  put: (fields: Fields<T>, condition?: Condition) => TransactItem;
  /** Writes the item only if it does not exist yet. */
  create: (fields: Fields<T>) => TransactItem;
  /** Updates the item at these key arguments. */
  update: (key: A, parts: UpdateParts) => TransactItem;
  /** Checks a condition on the item at these key arguments, without writing it. */
  check: (key: A, condition: Condition & { ConditionExpression: string }) => TransactItem;
  /** Deletes the item at these key arguments, under an optional condition. */
  remove: (key: A, condition?: Condition) => TransactItem;
}

/** Every entity declared, by name (read by the data-model test; nothing at run time depends on it). */
export const declaredEntities = new Map<string, EntityDefinition<any, any>>();

export function entity<T extends { entity: string }, A extends unknown[]>(def: EntityDefinition<T, A>): Entity<T, A> {
  declaredEntities.set(def.name, def);
  const indexAttributes = (fields: Fields<T>) => {
    const out: Record<string, string | number | undefined> = {};
    for (const ix of def.indexes ?? []) {
      const names = indexKeys(ix.index);
      out[names.pk] = ix.pk(fields);
      if (ix.sk) out[names.sk] = ix.sk(fields);
    }
    return out;
  };
  const item = (fields: Fields<T>): T => {
    const stored: Record<string, unknown> = { ...fields };
    for (const [name, value] of Object.entries(indexAttributes(fields))) {
      if (value === undefined) delete stored[name];
      else stored[name] = value;
    }
    return {
      ...stored,
      ...def.key(...def.keyOf(fields)),
      entity: def.name,
      ...(def.anon ? { anon: true } : {}),
    } as unknown as T;
  };
  return {
    name: def.name,
    key: def.key,
    indexAttributes,
    item,
    put: (fields, condition) => putEntry(item(fields), condition),
    create: (fields) => putEntry(item(fields), ABSENT),
    update: (key, parts) => updateEntry(def.key(...key), parts),
    check: (key, condition) => checkEntry(def.key(...key), condition),
    remove: (key, condition) => deleteEntry(def.key(...key), condition),
  };
}
