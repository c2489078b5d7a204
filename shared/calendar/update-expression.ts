import { addToCounter } from '../db/counters.ts';
import type { Key } from '../db/keys.ts';
import type { TransactItem } from '../db/table.ts';

/**
 * Builds an UpdateExpression that sets these attributes and removes those (values may be anything the
 * document client marshals; names are always aliased, so reserved words are safe).
 */
export function updateExpression(set: Record<string, unknown>, remove: string[] = []) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(set).map(([name, value], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  const removes = remove.map((name, i) => {
    names[`#r${i}`] = name;
    return `#r${i}`;
  });
  const parts = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ].filter(Boolean);
  return {
    UpdateExpression: parts.join(' '),
    ExpressionAttributeNames: names,
    ...(sets.length ? { ExpressionAttributeValues: values } : {}),
  };
}

/** Merges extra condition names and values into an update built by `updateExpression`. */
export function withCondition(
  update: ReturnType<typeof updateExpression>,
  condition: string,
  names: Record<string, string> = {},
  values: Record<string, unknown> = {},
) {
  return {
    ...update,
    ConditionExpression: condition,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...names },
    ...(update.ExpressionAttributeValues || Object.keys(values).length
      ? { ExpressionAttributeValues: { ...(update.ExpressionAttributeValues ?? {}), ...values } }
      : {}),
  };
}

/**
 * `addToCounter` (moved with ADD inside the caller's transaction) that also stamps the counter item's
 * `entity`, as every item carries one.
 */
export function counterWrite(key: Key, field: string, delta: number, entity: string): TransactItem {
  const update = addToCounter(key, field, delta).Update!;
  return {
    Update: {
      ...update,
      UpdateExpression: `${update.UpdateExpression} SET #entity = :entity`,
      ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#entity': 'entity' },
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':entity': entity },
    },
  } as TransactItem;
}
