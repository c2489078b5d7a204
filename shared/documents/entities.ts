import { type EntityItem, entity, shape } from '../db/entity.ts';

/**
 * The whole-list documents' items (docs/data-model.md, Whole lists; shared/documents/whole-list.ts).
 * A document itself is an object in the bucket (`documents/...json.gz`); the table holds what is not
 * folded into it yet, and the fold's lease.
 */

/**
 * One row of a whole-list document changed and not yet folded into the document: written in the
 * transaction of the change itself (a person's change, a check-in), so a request that reads the
 * document and these items answers every change made before it. `row: null` removes the row (an
 * erased person). `rev` orders changes of one row: a fold or a reader applies a change only over a row
 * of a lower or equal `rev`. The fold deletes the item once the document holds it (conditioned on its
 * `rev`, so a newer change written meanwhile stays).
 */
export const DocumentChange = entity({
  name: 'DocumentChange',
  fields: shape<{ doc: string; key: string; rev: number; row: unknown[] | null; at: string }>(),
  key: { pk: ['DOCCHANGES', 'doc'], sk: ['key'] },
});
export type DocumentChangeItem = EntityItem<typeof DocumentChange>;

/**
 * The fold's lease of one document: `dirty` is moved with ADD by every consumer batch that saw a
 * change; the holder (`owner`, until `leaseUntil`) remembers the value it started from (`seen`) and
 * lets go only while `dirty` still equals it, so a change seen while it folded is folded by it too
 * (coalescing: a burst of a thousand changes is a few folds, not a thousand).
 */
export const DocumentLease = entity({
  name: 'DocumentLease',
  fields: shape<{
    doc: string;
    dirty: number;
    seen?: number;
    owner?: string;
    leaseUntil?: string;
    /** Documents written so far (one per fold round): what coalescing saves is `dirty` against it. */
    folds?: number;
  }>(),
  key: { pk: ['DOCLEASE', 'doc'], sk: ['LEASE'] },
  inPlace: true,
});
