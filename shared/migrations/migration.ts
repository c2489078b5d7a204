import type { Item, TransactItem } from '../db/table.ts';

/**
 * One change of stored form, brought to every stored item (docs/deployment.md, "Upgrading and rolling
 * back"; docs/data-model.md, "Stored forms change by expand and contract"). A migration walks the items
 * of the entities it names, page by page, and answers for each the writes that bring it to the current
 * form, or none when it already has it: running it twice changes nothing the second time. Its writes
 * carry conditions on what was read, so a request that changed the item meanwhile wins and the item is
 * read again.
 */
export interface DataMigration {
  /** Sortable and never reused: `NNNN-what-it-does`. Migrations run in this order. */
  id: string;
  description: string;
  /** The stored `entity` names whose items it reads (`''`: items without one; none: every item). */
  entities: string[];
  /** Items a page reads (default 100): smaller when one item costs many requests. */
  pageSize?: number;
  /**
   * The writes that bring one stored item to the current form; empty when it has it already. Asked
   * again after its writes commit (with the item read again), until it answers none.
   */
  migrate: (item: Item) => Promise<TransactItem[]> | TransactItem[];
}

/**
 * A migration of the same release that another function runs: the one holding the key its code needs
 * (the grievance migrations run in the grievance area's function, docs/deployment.md). Every runner
 * walks one order; on reaching such a step it goes on only once that step is done, so a later
 * migration never runs before an earlier one, whichever function runs each.
 */
export interface MigrationElsewhere {
  id: string;
  /** The schedule (shared/api/background.ts) whose function runs it. */
  runBy: string;
}

export type MigrationStep = DataMigration | MigrationElsewhere;

export const runsHere = (step: MigrationStep): step is DataMigration => 'migrate' in step;
