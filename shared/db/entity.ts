import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  type FieldName,
  type IndexSegment,
  type KeySegment,
  render,
  renderPrefix,
  type Template,
  type TemplateFields,
} from './key-template.ts';
import type { Pager } from './paging.ts';
import { getItem, getMany, type Item, type QueryOptions, queryAll, type TransactItem } from './table.ts';
import { ANON_ATTRIBUTE, type IndexName, indexKeys, type Key } from './table-definition.ts';
import { sameStoredValue, updateExpression, withCondition } from './update-expression.ts';

/**
 * Every item kind of the table, declared once (after ElectroDB's and dynamodb-toolbox's entity models,
 * without their weight in every bundle): an entity names its stored `entity` attribute, its fields (a
 * type only), its key and index templates as data (key-template.ts) and the fields older items may
 * lack; its item type is derived from it (`EntityItem<typeof X>`). Its builders are the only makers of
 * a write entry and its reads the way items are read, so the stored key, `entity` and index attributes
 * cannot drift from the declaration. `docs/data-model.md` lists every declared entity (checked by
 * test/foundation/data-model.test.ts).
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
/** Only the item as read: its `rev` (moved by every write of it) still the one read (optimistic concurrency). */
export const atRevision = (rev: number) =>
  ({ ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': rev } }) as const;
/**
 * Only the item as read and still there: `atRevision`, and an update that must not create the item again
 * (deleted meanwhile): the read-decide-write of a record that can be deleted (audiences, surveys).
 */
export const presentAtRevision = (rev: number) =>
  ({ ConditionExpression: 'attribute_exists(pk) AND rev = :rev', ExpressionAttributeValues: { ':rev': rev } }) as const;

/** The numeric fields of an item's fields: what `add` may move. */
type NumericField<T> = { [P in keyof T]-?: NonNullable<T[P]> extends number ? P : never }[keyof T] & string;

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

/**
 * The writes of an item kind at a key it is given: in place (update, add), checks and deletes. Every
 * entity has them; one written whole also has `put`, `create` and `change`.
 */
function inPlaceWrites(name: string, anon: boolean | undefined) {
  const stamped = (parts: UpdateParts) => (anon ? withAnonStamp(parts) : parts);
  return {
    update: (key: Key, parts: UpdateParts) => updateEntry(key, stamped(parts)),
    add: (
      key: Key,
      deltas: Record<string, number>,
      {
        mustExist = false,
        set = {},
        condition,
      }: { mustExist?: boolean; set?: Record<string, unknown>; condition?: string } = {},
    ) => {
      const stamps = { entity: name, ...(anon ? { [ANON_ATTRIBUTE]: true } : {}), ...set };
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      const adds = Object.entries(deltas).map(([field, delta], i) => {
        names[`#a${i}`] = field;
        values[`:a${i}`] = delta;
        return `#a${i} :a${i}`;
      });
      const sets = Object.entries(stamps).map(([field, value], i) => {
        names[`#s${i}`] = field;
        values[`:s${i}`] = value;
        return `#s${i} = :s${i}`;
      });
      return updateEntry(key, {
        UpdateExpression: `ADD ${adds.join(', ')} SET ${sets.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ...(mustExist ? PRESENT : {}),
        ...(condition
          ? { ConditionExpression: mustExist ? `${PRESENT.ConditionExpression} AND (${condition})` : condition }
          : {}),
      });
    },
    check: (key: Key, condition: Condition & { ConditionExpression: string }) => checkEntry(key, condition),
    remove: (key: Key, condition?: Condition) => deleteEntry(key, condition),
  };
}

// ---------------------------------------------------------------- declarations with templates
/*
 * The declaration form every entity moves to (docs/data-model.md): the item's fields as a type-only
 * `shape<F>()`, its key and index templates as data (key-template.ts), the fields older items may lack
 * (`legacy`: optional when read, required when written) and the key composites it does not store
 * (`keyOnly`: a session's token hash, a counter's day). The item type is derived from it
 * (`EntityItem<typeof X>`), and reads go through it: `get`, `getMany`, `query`, `queryAll`.
 */
declare const shapeOf: unique symbol;
/** A type-only description of an item's fields: nothing of it reaches a bundle but `{}`. */
export type Shape<F> = { readonly [shapeOf]?: F };
export const shape = <F extends object>(): Shape<F> => ({}) as Shape<F>;
/** Key composites an item does not store, by name (the type says what they hold). */
export type KeyOnly<K> = Shape<K> & { readonly names: readonly string[] };
export const keyOnly = <K extends object>(...names: (keyof K & string)[]): KeyOnly<K> => ({ names }) as KeyOnly<K>;

type Simplify<T> = { [P in keyof T]: T[P] } & {};
/** What every item carries besides its fields. */
type Envelope<N extends string> = { pk: string; sk: string; entity: N };
/** An item as read: fields older items may lack are optional. */
export type StoredItem<N extends string, F, L extends string> = Simplify<
  Envelope<N> & Omit<F, L> & Partial<Pick<F, Extract<L, keyof F>>>
>;
/** The fields a key template reads, typed from the item and its key-only composites. */
export type KeyInput<FK, PK, SK> = Simplify<{
  [P in Extract<TemplateFields<PK> | TemplateFields<SK>, keyof FK>]: FK[P];
}>;

export interface IndexDeclaration<F> {
  index: IndexName;
  pk: readonly IndexSegment<F>[];
  /** Absent when something else moves the sort key (a counter kept with ADD). */
  sk?: readonly IndexSegment<F>[];
  /** A sparse index: the item is in it only while this holds (both attributes are removed otherwise). */
  when?: (item: F) => boolean;
}

export interface Declaration<
  N extends string,
  F extends object,
  K extends object,
  PK extends readonly KeySegment<NoInfer<F & K>>[],
  SK extends readonly KeySegment<NoInfer<F & K>>[],
  I extends string,
  L extends FieldName<F>,
> {
  // The field types come from `fields` and `keyOnly` alone (NoInfer): templates are checked against them.
  name: N;
  fields: Shape<F>;
  /** Key composites the item does not store (given to every write and read, never kept on the item). */
  keyOnly?: KeyOnly<K>;
  key: { pk: PK; sk: SK };
  indexes?: { [P in I]: IndexDeclaration<NoInfer<F & K>> };
  /** Fields items written by an older release may lack (CHANGELOG.md): optional when read. */
  legacy?: readonly L[];
  /** Written only in place (a counter moved with ADD, a marker set with SET): never rebuilt whole. */
  inPlace?: boolean;
  /** Grievance items: kept out of the change feed (table-definition.ts, ANON_ATTRIBUTE). */
  anon?: boolean;
}

/** A query through a declaration: the partition from the key (or the named index's) template. */
export type Where<FK, I extends string> = {
  /** The named index of the declaration; the primary key when absent. */
  index?: I;
  /** The fields the partition key's template reads, and the leading ones of the sort key's (a prefix). */
  key: Partial<FK>;
  /** A sort key range, bounds from fields as the template writes them (inclusive). */
  range?: { from: Partial<FK>; to: Partial<FK> };
  /** Sort keys after, or before, the one these fields give. */
  after?: Partial<FK>;
  before?: Partial<FK>;
} & Pick<QueryOptions, 'forward' | 'filter' | 'consistent' | 'skPrefix' | 'skBetween' | 'skAfter' | 'skBefore'>;

export interface DeclaredEntity<N extends string, T extends Item, W, KI, I extends string> {
  name: N;
  /** The key's templates, as declared (the write grants and the data model read them). */
  keyTemplate: { pk: Template<any>; sk: Template<any> };
  key: (fields: KI) => Key;
  /** The item as stored: its fields (without key-only ones), key, `entity` and index attributes. */
  item: (fields: W) => T;
  put: (fields: W, condition?: Condition) => TransactItem;
  create: (fields: W) => TransactItem;
  update: (key: KI, parts: UpdateParts) => TransactItem;
  /** Updates a stored item at its own key, as read (a migration's way to items of older forms). */
  updateStored: (stored: Key, parts: UpdateParts) => TransactItem;
  /** A delete at a stored item's key (data rights, shared/data-rights/rewrite.ts, which read it whole). */
  removeStored: (stored: Key, condition?: Condition) => TransactItem;
  /**
   * A whole stored item written as given, key included: data rights' rewrite of an item whose key its
   * fields do not rebuild (a key-only or in-place kind), moved to a key with one value replaced.
   */
  putStored: (stored: Item, condition?: Condition) => TransactItem;
  add: (
    key: KI,
    deltas: { [F in NumericField<W>]?: number },
    /** `condition`: an expression (no names or values) the item must meet, e.g. `attribute_not_exists(closed)`. */
    options?: { mustExist?: boolean; set?: Record<string, unknown>; condition?: string },
  ) => TransactItem;
  check: (key: KI, condition: Condition & { ConditionExpression: string }) => TransactItem;
  remove: (key: KI, condition?: Condition) => TransactItem;
  /**
   * The one way to change an item in place: SETs the fields that differ between `before` (as read) and
   * `after`, REMOVEs those `after` drops, and moves its index attributes (leaving a sparse index
   * removes them), at the key of `after`. An item read in an older form (`legacy` fields absent) may
   * stay in it: the stored-form migration brings it up to date.
   */
  change: (before: Partial<W> | T, after: W | T, condition?: Condition) => TransactItem;
  /** Every index attribute of the item; `undefined` = to be removed (the item left a sparse index). */
  indexAttributes: (fields: W) => Record<string, string | number | undefined>;
  get: (key: KI, options?: { consistent?: boolean }) => Promise<T | undefined>;
  /** Items by key, in the order asked (`undefined` where none is stored). */
  getMany: (keys: readonly KI[], options?: { consistent?: boolean }) => Promise<(T | undefined)[]>;
  /** One page (`page({ limit, cursor })` of paging.ts, which carries the cursor code only where it is used). */
  query: (where: Where<W, I>, page: Pager) => Promise<{ items: T[]; nextCursor: string | null }>;
  /** Every item of a bounded query (a partition whose size the data model bounds), up to `max`. */
  queryAll: (where: Where<W, I>, options?: { max?: number }) => Promise<T[]>;
  /** Whether an item read with others (a shared partition) is one of this entity's. */
  is: (item: Item | undefined) => item is T;
  /**
   * The query a `where` makes, for a read of a partition this entity shares with others (a person's
   * calendar holds meetings and seats): run it with table.ts's untyped reads and sort items with `is`.
   */
  queryOptions: (where: Where<W, I>) => QueryOptions;
}

/** The item type a declaration derives (`EntityItem<typeof Grievance>`). */
export type EntityItem<E> = E extends DeclaredEntity<any, infer T, any, any, any> ? T : never;
/** What a whole write of the entity takes: every field (legacy ones too) and the key-only composites. */
export type EntityFields<E> = E extends DeclaredEntity<any, any, infer W, any, any> ? W : never;
/** The fields that address one item of the entity. */
export type EntityKey<E> = E extends DeclaredEntity<any, any, any, infer KI, any> ? KI : never;

/** Any declared entity, whatever its types (what the stored-form migration handles). */
export type AnyEntity = DeclaredEntity<string, Item, any, any, string>;

/** What the data-model test and the stored-form migration read of a declaration. */
export interface DeclarationRecord {
  name: string;
  key: { pk: Template<any>; sk: Template<any> };
  indexes: Record<string, IndexDeclaration<any>>;
  /**
   * Whether a stored item rebuilds whole from its fields (shared/migrations/stored-form.ts): not when
   * its key uses a value it does not store, nor when it is only ever written in place.
   */
  rebuilds: boolean;
  anon: boolean;
  /** The built entity. */
  entity: AnyEntity;
}
/**
 * Every entity declared, by name, filled as the declaring modules load: what the stored-form migration
 * brings each stored item to, and what the data-model test reads.
 */
export const declarations = new Map<string, DeclarationRecord>();

/**
 * Fields the envelope holds, never an item's own. (`anon` is stamped by an anon declaration; an item
 * kind shared by both channels, the idempotency record, sets it per item as a field.)
 */
const ENVELOPE_FIELDS = new Set(['pk', 'sk', 'entity']);

/** Declares an item kind: see the top of this module and docs/data-model.md. */
export function entity<
  const N extends string,
  F extends object,
  K extends object,
  const PK extends readonly KeySegment<NoInfer<F & K>>[],
  const SK extends readonly KeySegment<NoInfer<F & K>>[],
  const I extends string = never,
  const L extends FieldName<F> = never,
>(
  def: Declaration<N, F, K, PK, SK, I, L>,
): DeclaredEntity<N, StoredItem<N, F, L>, Simplify<F & K>, KeyInput<F & K, PK, SK>, I> {
  type T = StoredItem<N, F, L>;
  type W = Simplify<F & K>;
  type KI = KeyInput<F & K, PK, SK>;
  const indexes = (def.indexes ?? {}) as Record<string, IndexDeclaration<any>>;
  const keyOnlyFields = new Set<string>(def.keyOnly?.names ?? []);
  const keyOf = (fields: Record<string, unknown>): Key => ({
    pk: String(render(def.key.pk, fields, true)),
    sk: String(render(def.key.sk, fields, true)),
  });
  const inPlace = inPlaceWrites(def.name, def.anon);
  const at = (key: unknown) => keyOf(key as Record<string, unknown>);
  const indexAttributes = (fields: Record<string, unknown>) => {
    const out: Record<string, string | number | undefined> = {};
    for (const ix of Object.values(indexes)) {
      const names = indexKeys(ix.index);
      const inIndex = !ix.when || ix.when(fields);
      const pk = inIndex ? render(ix.pk, fields) : undefined;
      // Declarations sharing one index (an item in one of several partitions of it, by its `when`): an
      // item out of this one keeps what the one it is in derived.
      if (pk === undefined && out[names.pk] !== undefined) continue;
      out[names.pk] = pk;
      if (ix.sk) out[names.sk] = inIndex ? render(ix.sk, fields) : undefined;
    }
    return out;
  };
  const item = (fields: Record<string, unknown>): T => {
    const stored: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(fields))
      if (!ENVELOPE_FIELDS.has(name) && !keyOnlyFields.has(name)) stored[name] = value;
    for (const [name, value] of Object.entries(indexAttributes(fields))) {
      if (value === undefined) delete stored[name];
      else stored[name] = value;
    }
    return {
      ...stored,
      ...keyOf(fields),
      entity: def.name,
      ...(def.anon ? { [ANON_ATTRIBUTE]: true } : {}),
    } as unknown as T;
  };
  const is = (it: Item | undefined): it is T => it?.entity === def.name;
  const queryOptions = (where: Where<W, I>): QueryOptions => {
    const ix = where.index ? indexes[where.index] : undefined;
    const keys = ix ?? def.key;
    const pk = render(keys.pk, where.key as Record<string, unknown>);
    if (pk === undefined) throw new Error(`${def.name}: the query gives no value for its partition key`);
    const sortTemplate = keys.sk ?? [];
    const bound = (fields: Record<string, unknown>) => {
      const at = renderPrefix(sortTemplate, fields);
      if (!at) throw new Error(`${def.name}: a sort key bound gives no value`);
      return 'whole' in at ? at.whole : at.prefix;
    };
    const options: QueryOptions = {
      index: ix?.index,
      pk: String(pk),
      forward: where.forward,
      filter: where.filter,
      consistent: where.consistent,
      skPrefix: where.skPrefix,
      skBetween: where.skBetween,
      skAfter: where.skAfter,
      skBefore: where.skBefore,
    };
    if (where.range) options.skBetween = [bound(where.range.from), bound(where.range.to)] as [string, string];
    else if (where.after) options.skAfter = bound(where.after);
    else if (where.before) options.skBefore = bound(where.before);
    else if (!where.skPrefix && !where.skBetween && where.skAfter === undefined && where.skBefore === undefined) {
      const leading = renderPrefix(sortTemplate, where.key as Record<string, unknown>);
      if (leading) options.skPrefix = 'whole' in leading ? String(leading.whole) : leading.prefix;
    }
    return options;
  };
  const built: DeclaredEntity<N, T, W, KI, I> = {
    name: def.name,
    keyTemplate: def.key,
    key: (fields) => keyOf(fields as Record<string, unknown>),
    item: (fields) => item(fields as Record<string, unknown>),
    put: (fields, condition) => putEntry(item(fields as Record<string, unknown>), condition),
    create: (fields) => putEntry(item(fields as Record<string, unknown>), ABSENT),
    update: (key, parts) => inPlace.update(at(key), parts),
    updateStored: (stored, parts) => inPlace.update({ pk: stored.pk, sk: stored.sk }, parts),
    removeStored: (stored, condition) => deleteEntry({ pk: stored.pk, sk: stored.sk }, condition),
    putStored: (stored, condition) => putEntry({ ...stored, entity: def.name }, condition),
    add: (key, deltas, options) => inPlace.add(at(key), deltas as Record<string, number>, options),
    check: (key, condition) => inPlace.check(at(key), condition),
    remove: (key, condition) => inPlace.remove(at(key), condition),
    change: (before, after, condition = {}) => {
      const was = before as Record<string, unknown>;
      const next = after as Record<string, unknown>;
      const set: Record<string, unknown> = {};
      const remove: string[] = [];
      for (const [name, value] of Object.entries(next)) {
        if (ENVELOPE_FIELDS.has(name) || keyOnlyFields.has(name)) continue;
        if (value === undefined) {
          if (was[name] !== undefined) remove.push(name);
        } else if (!sameStoredValue(value, was[name])) set[name] = value;
      }
      for (const name of Object.keys(was))
        if (!(name in next) && !ENVELOPE_FIELDS.has(name) && !/^gsi\d+(pk|sk)$/.test(name)) remove.push(name);
      for (const [name, value] of Object.entries(indexAttributes(next))) {
        if (value === undefined) remove.push(name);
        else if (value !== was[name]) set[name] = value;
      }
      const parts = changeParts(def.name, set, [...new Set(remove)], condition);
      return inPlace.update(at(next), parts);
    },
    indexAttributes: (fields) => indexAttributes(fields as Record<string, unknown>),
    get: async (key, options) => {
      const found = await getItem<T>(keyOf(key as Record<string, unknown>), options?.consistent);
      return is(found) ? found : undefined;
    },
    getMany: async (keys, options) => {
      const addressed = keys.map((k) => keyOf(k as Record<string, unknown>));
      const found = await getMany<T>(addressed, options?.consistent);
      return addressed.map((k) => {
        const it = found.get(`${k.pk}|${k.sk}`);
        return is(it) ? it : undefined;
      });
    },
    query: (where, pager) => pager.run<T>(queryOptions(where)),
    queryAll: (where, options) => queryAll<T>({ ...queryOptions(where), ...options }),
    is,
    queryOptions,
  };
  declarations.set(def.name, {
    name: def.name,
    key: def.key,
    indexes,
    rebuilds: !def.keyOnly && !def.inPlace,
    anon: !!def.anon,
    entity: built as unknown as AnyEntity,
  });
  return built;
}

/** SET and REMOVE clauses (names aliased) with an optional condition: what `change` writes. */
function changeParts(name: string, set: Record<string, unknown>, remove: string[], condition: Condition): UpdateParts {
  // A change that changes nothing still writes its `entity`, so the update (and its condition) stays valid.
  const update = updateExpression(Object.keys(set).length || remove.length ? set : { entity: name }, remove);
  if (!condition.ConditionExpression) return update;
  return withCondition(
    update,
    condition.ConditionExpression,
    condition.ExpressionAttributeNames,
    condition.ExpressionAttributeValues,
  );
}
