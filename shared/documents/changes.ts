import type { TransactItem } from '../db/table.ts';
import { DocumentChange, type DocumentChangeItem } from './entities.ts';

/**
 * The table's side of the whole-list documents (whole-list.ts): the change items written in each
 * change's own transaction, and how they apply over a document's rows. No S3 here: the writers of
 * changes (every change of a person, every check-in) import only this.
 */

/** A document's rows: key → [rev, ...row]. */
export type Rows = Map<string, unknown[]>;

/** A tombstone's rev: it wins over every row (an erased person's id never comes back). */
export const REMOVED_REV = Number.MAX_SAFE_INTEGER;

/** The write, in a change's own transaction, of a row's new value (`null`: the row goes). */
export function listChange(doc: string, key: string, rev: number, row: unknown[] | null): TransactItem {
  return DocumentChange.put({ doc, key, rev, row, at: new Date().toISOString() });
}

/** The change items not folded yet (one consistent Query of the document's partition). */
export const pendingChanges = (doc: string): Promise<DocumentChangeItem[]> =>
  DocumentChange.queryAll({ key: { doc }, consistent: true });

/** Applies change items over rows, each only over a row of a lower or equal rev. */
export function applyChanges(rows: Rows, changes: DocumentChangeItem[]): Rows {
  for (const c of changes) {
    const current = rows.get(c.key);
    if (current && Number(current[0]) > c.rev) continue;
    if (c.row === null) rows.delete(c.key);
    else rows.set(c.key, [c.rev, ...c.row]);
  }
  return rows;
}
