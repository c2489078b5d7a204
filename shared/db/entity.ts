import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { ANON_ATTRIBUTE, type Key } from './keys.ts';
import type { Item, TransactItem } from './table.ts';
import { type IndexName, indexKeys } from './table-definition.ts';

/**
 * Every item kind of the table, declared once (after ElectroDB's entity model, without its weight in
 * every bundle): an entity names its `entity` attribute, its key (built in `keys.ts`), the index
 * attributes derived from its item (sparse ones answer `undefined` while the item is out of the index)
 * and, through its type parameter, the item's shape. Its builders are the only makers of a write entry,
 * so the stored key, `entity` and index attributes cannot drift from the declaration.
 * `docs/data-model.md` lists every declared entity (checked by test/foundation/data-model.test.ts).
 */

/** A condition on the item a write addresses. */
export type Condition = Pick<
  UpdateCommandInput,
  'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
>;
/** An update's expression and, optionally, its condition. */
export type UpdateParts = Condition & { UpdateExpression: string };

/*
 * The raw entries. `TransactItem` is branded (table.ts): these four are the only makers of one, and only
 * the entity builders below call them, so every write of the table starts from a declaration.
 */
const entry = (raw: object) => raw as TransactItem;
const putEntry = (item: Item, condition: Condition = {}) => entry({ Put: { Item: item, ...condition } });
const updateEntry = (key: Key, parts: UpdateParts) => entry({ Update: { Key: key, ...parts } });
const checkEntry = (key: Key, condition: Condition & { ConditionExpression: string }) =>
  entry({ ConditionCheck: { Key: key, ...condition } });
const deleteEntry = (key: Key, condition: Condition = {}) => entry({ Delete: { Key: key, ...condition } });

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

/** The numeric fields of an item type: what `add` may move. */
type NumericField<T> = { [P in keyof T]-?: NonNullable<T[P]> extends number ? P : never }[keyof T] & string;

/**
 * An item kind only ever written in place (a counter moved with ADD, a marker set with SET): its key
 * and item type, nothing to derive from a whole item. `docs/data-model.md` lists it like any entity.
 */
export interface UpdatedEntityDefinition<T extends { entity: string }, A extends unknown[]> {
  name: T['entity'];
  /** The key, from `keys.ts`. */
  key: (...args: A) => Key;
  /** Grievance items: kept out of the change feed (see keys.ts, ANON_ATTRIBUTE). */
  anon?: boolean;
}

/** An item kind written whole: the key arguments are fields of the item, and so are its index attributes. */
export interface EntityDefinition<T extends { entity: string }, A extends unknown[]>
  extends UpdatedEntityDefinition<T, A> {
  /** The key arguments of an item (stored on it, as ElectroDB stores an entity's key composites). */
  keyOf: (item: Fields<T>) => A;
  indexes?: EntityIndex<Fields<T>>[];
}

export interface UpdatedEntity<T extends { entity: string }, A extends unknown[]> {
  name: T['entity'];
  key: (...args: A) => Key;
  /** Updates the item at these key arguments (creating it, as UpdateItem does, unless a condition stops it). */
  update: (key: A, parts: UpdateParts) => TransactItem;
  /**
   * Updates a stored item of this entity at its own key, as read: a migration's way to an item written
   * before its key composites were stored on it (shared/migrations/).
   */
  updateStored: (stored: Key, parts: UpdateParts) => TransactItem;
  /**
   * Adds to numeric fields (ADD: no read, no lost update, each created at 0 by its first change), in one
   * write however many move. The item is stamped with its `entity` (and `anon`), as every item carries
   * them; `set`: plain attributes written alongside. `mustExist`: only an existing item.
   */
  add: (
    key: A,
    deltas: { [F in NumericField<T>]?: number },
    options?: { mustExist?: boolean; set?: Record<string, unknown> },
  ) => TransactItem;
  /** Checks a condition on the item at these key arguments, without writing it. */
  check: (key: A, condition: Condition & { ConditionExpression: string }) => TransactItem;
  /** Deletes the item at these key arguments, under an optional condition. */
  remove: (key: A, condition?: Condition) => TransactItem;
}

export interface Entity<T extends { entity: string }, A extends unknown[]> extends UpdatedEntity<T, A> {
  /** The key arguments an item is stored under. */
  keyOf: (item: Fields<T>) => A;
  /** Every index attribute of the item; `undefined` = to be removed (the item left a sparse index). */
  indexAttributes: (item: Fields<T>) => Record<string, string | number | undefined>;
  /**
   * What an update that changes the item in place writes besides its own fields, for the item as it
   * will be: the index attributes to SET, and those to REMOVE (the sparse indexes it is not in).
   */
  indexChanges: (item: Fields<T>) => { set: Record<string, string | number>; remove: string[] };
  /** The item as stored: its fields, key, `entity` and the index attributes it is in. */
  item: (fields: Fields<T>) => T;
  /** Writes the whole item (stored form), under an optional condition. */
  put: (fields: Fields<T>, condition?: Condition) => TransactItem;
  /** Writes the item only if it does not exist yet. */
  create: (fields: Fields<T>) => TransactItem;
}

/**
 * An anon entity's update also sets `anon`, so that an update which creates its item (UpdateItem
 * creates what does not exist) cannot write a grievance item the change feed would see: the stream
 * filter drops items by that attribute (shared/live/stream-filters.ts).
 */
function withAnonStamp(parts: UpdateParts): UpdateParts {
  const stamp = '#anonStamp = :anonStamp';
  const set = /\bSET\s/i;
  return {
    ...parts,
    UpdateExpression: set.test(parts.UpdateExpression)
      ? parts.UpdateExpression.replace(set, `SET ${stamp}, `)
      : `${parts.UpdateExpression} SET ${stamp}`,
    ExpressionAttributeNames: { ...parts.ExpressionAttributeNames, '#anonStamp': ANON_ATTRIBUTE },
    ExpressionAttributeValues: { ...parts.ExpressionAttributeValues, ':anonStamp': true },
  };
}

/** Every entity declared, by name (read by the data-model test; nothing at run time depends on it). */
export const declaredEntities = new Map<string, UpdatedEntityDefinition<any, any>>();
/**
 * The built entities, by name: what the stored-form migration (shared/migrations/stored-form.ts) brings
 * each stored item to. Filled as the declaring modules load.
 */
export const builtEntities = new Map<string, UpdatedEntity<any, any> | Entity<any, any>>();

function updatedEntity<T extends { entity: string }, A extends unknown[]>(
  def: UpdatedEntityDefinition<T, A>,
): UpdatedEntity<T, A> {
  declaredEntities.set(def.name, def);
  return {
    name: def.name,
    key: def.key,
    update: (key, parts) => updateEntry(def.key(...key), def.anon ? withAnonStamp(parts) : parts),
    updateStored: (stored, parts) =>
      updateEntry({ pk: stored.pk, sk: stored.sk }, def.anon ? withAnonStamp(parts) : parts),
    add: (key, deltas, { mustExist = false, set = {} } = {}) => {
      const stamps = { entity: def.name, ...(def.anon ? { [ANON_ATTRIBUTE]: true } : {}), ...set };
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      const adds = Object.entries(deltas as Record<string, number>).map(([field, delta], i) => {
        names[`#a${i}`] = field;
        values[`:a${i}`] = delta;
        return `#a${i} :a${i}`;
      });
      const sets = Object.entries(stamps).map(([field, value], i) => {
        names[`#s${i}`] = field;
        values[`:s${i}`] = value;
        return `#s${i} = :s${i}`;
      });
      return updateEntry(def.key(...key), {
        UpdateExpression: `ADD ${adds.join(', ')} SET ${sets.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ...(mustExist ? PRESENT : {}),
      });
    },
    check: (key, condition) => checkEntry(def.key(...key), condition),
    remove: (key, condition) => deleteEntry(def.key(...key), condition),
  };
}

/** An item kind written whole (`keyOf` given) or only in place (no `keyOf`: update, add, check, remove). */
export function entity<T extends { entity: string }, A extends unknown[]>(def: EntityDefinition<T, A>): Entity<T, A>;
export function entity<T extends { entity: string }, A extends unknown[]>(
  def: UpdatedEntityDefinition<T, A>,
): UpdatedEntity<T, A>;
export function entity<T extends { entity: string }, A extends unknown[]>(
  def: EntityDefinition<T, A> | UpdatedEntityDefinition<T, A>,
): Entity<T, A> | UpdatedEntity<T, A> {
  const inPlace = updatedEntity(def);
  if (!('keyOf' in def)) {
    builtEntities.set(def.name, inPlace);
    return inPlace;
  }
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
      ...(def.anon ? { [ANON_ATTRIBUTE]: true } : {}),
    } as unknown as T;
  };
  const built: Entity<T, A> = {
    ...inPlace,
    keyOf: def.keyOf,
    indexAttributes,
    indexChanges: (fields) => {
      const entries = Object.entries(indexAttributes(fields));
      return {
        set: Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as Record<string, string | number>,
        remove: entries.filter(([, value]) => value === undefined).map(([name]) => name),
      };
    },
    item,
    put: (fields, condition) => putEntry(item(fields), condition),
    create: (fields) => putEntry(item(fields), ABSENT),
  };
  builtEntities.set(def.name, built);
  return built;
}
