import { ANON_ATTRIBUTE, grievanceTotalsKey, type Key } from '../db/keys.ts';
import type { TransactItem } from '../db/table.ts';
import type { Category, Status } from './model.ts';

/**
 * Board totals: one counter per filter combination (all, per status, per category, per status and
 * category), all on one item, so any filtered `total` is one attribute of one read and moves in the
 * same transaction as the raise or move it counts.
 */
export type BoardFilter = { status?: Status; category?: Category };

export function totalField(f: BoardFilter): string {
  if (f.status && f.category) return `status_${f.status}_category_${f.category}`;
  if (f.status) return `status_${f.status}`;
  if (f.category) return `category_${f.category}`;
  return 'all';
}

/** The fields a grievance in this status and category counts in. */
const fieldsOf = (status: Status, category: Category) => [
  totalField({}),
  totalField({ status }),
  totalField({ category }),
  totalField({ status, category }),
];

/** Counter moves for a new grievance. */
export const raisedDeltas = (status: Status, category: Category): Map<string, number> =>
  new Map(fieldsOf(status, category).map((f) => [f, 1]));

/** Counter moves for a grievance leaving `from` for `to` (none when it stays). */
export function movedDeltas(from: Status, to: Status, category: Category): Map<string, number> {
  const deltas = new Map<string, number>();
  if (from === to) return deltas;
  for (const f of fieldsOf(from, category)) deltas.set(f, (deltas.get(f) ?? 0) - 1);
  for (const f of fieldsOf(to, category)) deltas.set(f, (deltas.get(f) ?? 0) + 1);
  for (const [f, d] of deltas) if (d === 0) deltas.delete(f);
  return deltas;
}

/** One `ADD` of every non-zero delta on the totals item, for the caller's transaction; null when nothing moves. */
export function totalsWrite(deltas: Map<string, number>): TransactItem | null {
  return deltas.size === 0 ? null : anonCountersWrite(grievanceTotalsKey(), 'GrievanceTotals', deltas);
}

/**
 * One `ADD` per counter on an item of the anonymous part of the table (stamped with its entity and the
 * anon attribute on its first write), for the caller's transaction.
 */
export function anonCountersWrite(key: Key, entity: string, deltas: Map<string, number>): TransactItem {
  const names: Record<string, string> = { '#entity': 'entity', '#anon': ANON_ATTRIBUTE };
  const values: Record<string, unknown> = { ':entity': entity, ':anon': true };
  const adds = [...deltas].map(([field, delta], i) => {
    names[`#f${i}`] = field;
    values[`:d${i}`] = delta;
    return `#f${i} :d${i}`;
  });
  return {
    Update: {
      Key: key,
      UpdateExpression: `ADD ${adds.join(', ')} SET #entity = :entity, #anon = :anon`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}
