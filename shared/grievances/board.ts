import type { Category, Status } from './vocabulary.ts';

/**
 * The board and the handler queue, a leaf module: one index of the grievance per filter combination
 * (entities.ts, `Grievance`), so every filtered page, newest or oldest first, is a single Query.
 */
export type BoardFilter = { status?: Status; category?: Category };

/** The index of `Grievance` that lists the grievances of this filter. */
export function boardIndex(filter: BoardFilter): 'all' | 'byStatus' | 'byCategory' | 'byBoth' {
  if (filter.status && filter.category) return 'byBoth';
  if (filter.status) return 'byStatus';
  if (filter.category) return 'byCategory';
  return 'all';
}
