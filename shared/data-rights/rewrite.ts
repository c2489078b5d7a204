import { declarations } from '../db/entity.ts';
import type { Item, TransactItem } from '../db/table.ts';
import { ANON_ATTRIBUTE } from '../db/table-definition.ts';
import { sameStoredValue, updateExpression, withCondition } from '../db/update-expression.ts';

/** The attributes that say what an item is, not what it holds. */
const ENVELOPE = new Set(['pk', 'sk', 'entity', ANON_ATTRIBUTE]);
const INDEX_ATTRIBUTE = /^gsi\d+(pk|sk)$/;

/** The item's own fields (no key, index attributes or envelope). */
export function fieldsOf(item: Item): Item {
  const out: Item = {};
  for (const [k, v] of Object.entries(item)) if (!ENVELOPE.has(k) && !INDEX_ATTRIBUTE.test(k)) out[k] = v;
  return out;
}

/** A condition that holds while the stored item is exactly as read (every attribute but its key). */
function unchangedSince(item: Item): { condition: string; names: Item; values: Item } {
  const read = Object.entries(item).filter(([k]) => k !== 'pk' && k !== 'sk');
  return {
    condition: ['attribute_exists(pk)', ...read.map((_, i) => `#c${i} = :c${i}`)].join(' AND '),
    names: Object.fromEntries(read.map(([k], i) => [`#c${i}`, k])),
    values: Object.fromEntries(read.map(([, v], i) => [`:c${i}`, v])),
  };
}

/**
 * The writes that turn a stored item into `fields` through its declaration: its key, index attributes
 * and `entity` derived again (a declaration that cannot rebuild its key from its fields keeps the
 * stored key with `keyOf` applied). In place when the key stays, else the old item is deleted and the
 * new one created in the same transaction. Every write is conditioned on the item being as read, so a
 * change made meanwhile fails the transaction (the caller reads again).
 */
export function rewriteItem(item: Item, fields: Item, keyOf: (key: string) => string): TransactItem[] {
  const declared = declarations.get(item.entity as string);
  if (!declared) throw new Error(`data rights: no declaration for ${String(item.entity)}`);
  let wanted: Item;
  if (declared.rebuilds) wanted = declared.entity.item(fields);
  else {
    wanted = { ...fields, pk: keyOf(item.pk), sk: keyOf(item.sk), entity: item.entity };
    for (const [k, v] of Object.entries(item))
      if (INDEX_ATTRIBUTE.test(k)) wanted[k] = typeof v === 'string' ? keyOf(v) : v;
    if (item[ANON_ATTRIBUTE] === true) wanted[ANON_ATTRIBUTE] = true;
  }
  const { condition, names, values } = unchangedSince(item);
  if (wanted.pk === item.pk && wanted.sk === item.sk) {
    const set: Item = {};
    for (const [k, v] of Object.entries(wanted))
      if (k !== 'pk' && k !== 'sk' && !sameStoredValue(v, item[k])) set[k] = v;
    const remove = Object.keys(item).filter((k) => k !== 'pk' && k !== 'sk' && !(k in wanted));
    if (!Object.keys(set).length && !remove.length) return [];
    const update = updateExpression(Object.keys(set).length ? set : { entity: item.entity }, remove);
    return [
      declared.entity.updateStored({ pk: item.pk, sk: item.sk }, withCondition(update, condition, names, values)),
    ];
  }
  const asRead = { ConditionExpression: condition, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
  return [
    declared.entity.removeStored({ pk: item.pk, sk: item.sk }, asRead),
    declared.entity.putStored(wanted, { ConditionExpression: 'attribute_not_exists(pk)' }),
  ];
}

/** The write that removes a stored item, conditioned on it being as read. */
export function removeItem(item: Item): TransactItem {
  const declared = declarations.get(item.entity as string);
  if (!declared) throw new Error(`data rights: no declaration for ${String(item.entity)}`);
  const { condition, names, values } = unchangedSince(item);
  return declared.entity.removeStored(
    { pk: item.pk, sk: item.sk },
    { ConditionExpression: condition, ExpressionAttributeNames: names, ExpressionAttributeValues: values },
  );
}

/** The write that removes some attributes of a stored item kept otherwise, conditioned on it being as read. */
export function removeAttributes(item: Item, attributes: string[]): TransactItem {
  const declared = declarations.get(item.entity as string);
  if (!declared) throw new Error(`data rights: no declaration for ${String(item.entity)}`);
  const { condition, names, values } = unchangedSince(item);
  const update = updateExpression({ entity: item.entity }, attributes);
  return declared.entity.updateStored({ pk: item.pk, sk: item.sk }, withCondition(update, condition, names, values));
}
