import type { UpdatedEntity } from '../db/entity.ts';
import { ANON_ATTRIBUTE } from '../db/keys.ts';
import type { TransactItem } from '../db/table.ts';

/**
 * Several counters of one in-place grievance entity moved in one write (`add()` moves one; the totals
 * and a day's statistics move up to a dozen at once), stamped with the entity and the anon attribute as
 * `add()` stamps them, for the caller's transaction. `set`: plain attributes set alongside.
 */
export function addCounters<T extends { entity: string }, A extends unknown[]>(
  counters: UpdatedEntity<T, A>,
  key: A,
  deltas: Map<string, number>,
  set: Record<string, unknown> = {},
): TransactItem {
  const names: Record<string, string> = { '#entity': 'entity', '#anon': ANON_ATTRIBUTE };
  const values: Record<string, unknown> = { ':entity': counters.name, ':anon': true };
  const adds = [...deltas].map(([field, delta], i) => {
    names[`#f${i}`] = field;
    values[`:d${i}`] = delta;
    return `#f${i} :d${i}`;
  });
  const sets = Object.entries(set).map(([field, value], i) => {
    names[`#s${i}`] = field;
    values[`:s${i}`] = value;
    return `, #s${i} = :s${i}`;
  });
  return counters.update(key, {
    UpdateExpression: `ADD ${adds.join(', ')} SET #entity = :entity, #anon = :anon${sets.join('')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}
