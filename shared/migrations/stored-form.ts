import { declarations } from '../db/entity.ts';
import type { Item, TransactItem } from '../db/table.ts';
import { ANON_ATTRIBUTE } from '../db/table-definition.ts';
import { sameStoredValue, updateExpression, withCondition } from '../db/update-expression.ts';
import type { DataMigration } from './migration.ts';

/**
 * An older stored form of an entity (expand and contract, docs/data-model.md): how to recognise an item
 * written in it, and the fields the current form stores that it lacks. Declared beside the entity, in
 * its area's `migrations.ts`, with the release that changed it (CHANGELOG.md).
 */
export interface LegacyForm {
  /** The entity's current name. */
  entity: string;
  /** An item stored in the older form (by its stored `entity` name and its key). */
  matches: (item: Item) => boolean;
  /** What the current form stores that the older one derived from its key. */
  fields?: (item: Item) => Record<string, unknown>;
  /** What changed, for CHANGELOG.md and the operator's log. */
  change: string;
}

/** The attributes that say what an item is, not what it holds: kept out of an item's fields. */
const ENVELOPE = new Set(['pk', 'sk', 'entity', ANON_ATTRIBUTE]);

/**
 * The writes that bring one stored item to its declaration's current form: its `entity` name (and
 * `anon`), the key composites it stores and the index attributes derived from it. Nothing else is
 * removed or changed, so fields a newer release added stay (the previous release keeps working), and an
 * item already in the current form needs no write. The update is conditioned on every attribute read,
 * so a request that changed the item meanwhile makes the runner read it again.
 */
export function storedFormWrites(item: Item, legacy: readonly LegacyForm[]): TransactItem[] {
  const form = legacy.find((l) => l.matches(item));
  const name = form?.entity ?? (item.entity as string | undefined);
  const declared = name ? declarations.get(name) : undefined;
  if (!declared) return []; // not an item kind of this release (a newer release's): left as it is
  const fields: Item = { ...item, ...(form?.fields?.(item) ?? {}) };
  for (const k of ENVELOPE) delete fields[k];
  let wanted: Item;
  if (declared.rebuilds) {
    wanted = declared.entity.item(fields);
    if (wanted.pk !== item.pk || wanted.sk !== item.sk)
      throw new Error(`${name}: the item ${item.pk}/${item.sk} does not rebuild its own key`);
  } else {
    wanted = { ...item, entity: name };
  }
  const set: Item = {};
  for (const [k, v] of Object.entries(wanted))
    if (k !== 'pk' && k !== 'sk' && k !== ANON_ATTRIBUTE && !sameStoredValue(v, item[k])) set[k] = v;
  const indexNames = /^gsi\d+(pk|sk)$/;
  const remove = Object.keys(item).filter((k) => indexNames.test(k) && !(k in wanted));
  const anonMissing = wanted[ANON_ATTRIBUTE] === true && item[ANON_ATTRIBUTE] !== true;
  if (Object.keys(set).length === 0 && remove.length === 0 && !anonMissing) return [];

  // An anon entity's update stamps `anon` itself (entity.ts), which needs a SET clause to join.
  const update = updateExpression(Object.keys(set).length ? set : { entity: name }, remove);
  // Unchanged since read: every attribute read keeps its value.
  const read = Object.entries(item).filter(([k]) => k !== 'pk' && k !== 'sk');
  const names = Object.fromEntries(read.map(([k], i) => [`#c${i}`, k]));
  const values = Object.fromEntries(read.map(([, v], i) => [`:c${i}`, v]));
  const condition = ['attribute_exists(pk)', ...read.map((_, i) => `#c${i} = :c${i}`)].join(' AND ');
  return [declared.entity.updateStored({ pk: item.pk, sk: item.sk }, withCondition(update, condition, names, values))];
}

/** The migration that brings every item of every declared entity to its current form. */
export function storedFormMigration(id: string, legacy: readonly LegacyForm[]): DataMigration {
  return {
    id,
    description:
      "Every item in its entity's current stored form: entity names, stored key composites, index attributes",
    // Every item (no filter): a stored name this release no longer declares is known by its legacy form.
    entities: [],
    migrate: (item) => storedFormWrites(item, legacy),
  };
}

/**
 * The stored-form migration for a few entities only: a release that adds index attributes to an entity
 * (expand) backfills them on the items stored before it, without walking the others' forms again.
 */
export function indexBackfillMigration(
  id: string,
  description: string,
  entities: string[],
  legacy: readonly LegacyForm[],
): DataMigration {
  return { id, description, entities, migrate: (item) => storedFormWrites(item, legacy) };
}
