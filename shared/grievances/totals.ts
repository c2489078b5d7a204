import type { TransactItem } from '../db/table.ts';
import type { BoardFilter } from './board.ts';
import { GrievanceTotals, type GrievanceTotalsItem } from './entities.ts';
import type { Category, Status } from './vocabulary.ts';

/**
 * Board totals: one counter per filter combination (all, per status, per category, per status and
 * category), all on one item (`GrievanceTotals`), so any filtered `total` is one attribute of one read
 * and moves in the same transaction as the raise or move it counts.
 */

/** The counter of a filter: `all`, `status_<s>`, `category_<c>`, `status_<s>_category_<c>`. */
export function totalField(f: BoardFilter): 'all' | `status_${string}` | `category_${string}` {
  if (f.status && f.category) return `status_${f.status}_category_${f.category}`;
  if (f.status) return `status_${f.status}`;
  if (f.category) return `category_${f.category}`;
  return 'all';
}

/** The total of a filter on the totals item as read. */
export const totalOf = (totals: GrievanceTotalsItem, f: BoardFilter): number => totals[totalField(f)] ?? 0;

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
  return deltas.size === 0 ? null : GrievanceTotals.add({}, Object.fromEntries(deltas));
}
