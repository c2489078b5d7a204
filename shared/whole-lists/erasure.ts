import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { transact } from '../db/table.ts';
import { listChange, pendingChanges, REMOVED_REV, type Rows } from '../documents/changes.ts';
import type { DocumentChangeItem } from '../documents/entities.ts';
import { DOCUMENTS_PREFIX, documentName, foldList, type ListSpec, readDocument } from '../documents/whole-list.ts';
import { attendanceDocDate, attendanceList } from '../hr/attendance-day.ts';
import { ROSTER, rosterList } from '../people/roster.ts';
import { bucketName, s3 } from '../storage/client.ts';

/**
 * An erased person out of the whole lists' current documents (shared/data-rights/erasure.ts, after the
 * erasure's second walk): every document in the bucket that still holds them (their row, or a row
 * naming them by id or address) gets their tombstone and is folded, until neither the document nor its
 * pending changes hold them. The bucket keeps the roster and a few days of attendance, so this reads a
 * handful of objects. Their earlier versions are then erased by the worker (erase-objects.ts).
 */
export interface Person {
  userId: string;
  email: string;
}

/** The documents' current objects, by name (a few: the roster and the last days' attendance). */
async function documentNames(): Promise<string[]> {
  const names: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3().send(
      new ListObjectsV2Command({ Bucket: bucketName(), Prefix: DOCUMENTS_PREFIX, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) {
      const name = o.Key ? documentName(o.Key) : undefined;
      if (name) names.push(name);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return names;
}

const specOf = (doc: string): ListSpec | undefined => {
  if (doc === ROSTER) return rosterList;
  const date = attendanceDocDate(doc);
  return date ? attendanceList(date) : undefined;
};

const isPerson = (p: Person) => {
  const email = p.email.trim().toLowerCase();
  const cell = (v: unknown) =>
    typeof v === 'string' && (v === p.userId || (!!email && v.trim().toLowerCase() === email));
  // A cell may be a list (the roster's company values, roster-row.ts).
  return (v: unknown) => cell(v) || (Array.isArray(v) && v.some(cell));
};

/** Whether rows (a document's) or change items hold the person: keyed by them, or a cell equal to their id or address. */
export function holdsPerson(rows: Rows | undefined, changes: DocumentChangeItem[], p: Person): boolean {
  const matches = isPerson(p);
  for (const [key, row] of rows ?? []) if (key === p.userId || row.some(matches)) return true;
  return changes.some((c) => c.key === p.userId || (Array.isArray(c.row) && c.row.some(matches)));
}

async function holds(
  doc: string,
  p: Person,
): Promise<{ stored: Rows | undefined; changes: DocumentChangeItem[]; held: boolean }> {
  const changes = await pendingChanges(doc);
  const stored = await readDocument(doc);
  return { stored, changes, held: holdsPerson(stored, changes, p) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Folds the person out of every current document. Answers the documents it folded, or undefined when
 * one still holds them after `waitMs` (another fold holding the lease that long): the step is tried
 * again by a later run.
 */
export async function dropFromDocuments(p: Person, { waitMs = 20_000 } = {}): Promise<string[] | undefined> {
  const folded: string[] = [];
  for (const doc of await documentNames()) {
    const spec = specOf(doc);
    if (!spec) continue;
    const first = await holds(doc, p);
    if (!first.held) continue;
    // Their own row goes by a tombstone (rev above every other); rows naming them were changed as people
    // by the erasure's walks, and those changes are pending or folded already.
    if (first.stored?.has(p.userId) || first.changes.some((c) => c.key === p.userId))
      await transact([listChange(doc, p.userId, REMOVED_REV, null)]);
    let clean = false;
    for (const full of [false, true]) {
      // Not taking the lease means a fold is under way, which folds again for the mark this set.
      await foldList(spec, { full });
      const until = Date.now() + waitMs / 2;
      for (;;) {
        clean = !(await holds(doc, p)).held;
        if (clean || Date.now() > until) break;
        await sleep(250);
      }
      if (clean) break;
    }
    if (!clean) return undefined;
    folded.push(doc);
  }
  return folded;
}
