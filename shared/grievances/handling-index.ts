import type { GrievanceHandlingIndex } from '../db/keys.ts';
import { keyString, type TransactItem } from '../db/table.ts';
import { Grievance, GrievanceHandlingEntry } from './entities.ts';
import { nextDeadline, nextReminder } from './handling.ts';
import { type GrievanceItem, isFinished } from './model.ts';

/**
 * The handling index entries of a grievance, a pure function of its state: its next deadline
 * (DEADLINES), its next reminder (REMINDERS) and, once finished, its finishing time (FINISHED). Every
 * change to a grievance writes the difference in its own transaction, so the entries never drift.
 * An entry holds the grievance id and a time derived from the grievance, never anything of a person.
 */
export interface HandlingEntryItem {
  pk: string;
  sk: string;
  entity: 'GrievanceHandlingEntry';
  /** Which index (a key composite, with the shard derived from the grievance id and the time). */
  index: GrievanceHandlingIndex;
  grievanceId: string;
  at: string;
}

export function handlingEntries(g: GrievanceItem): HandlingEntryItem[] {
  const entry = (index: GrievanceHandlingIndex, at: string) =>
    GrievanceHandlingEntry.item({ index, grievanceId: g.id, at });
  const out: HandlingEntryItem[] = [];
  const deadline = nextDeadline(g);
  if (deadline) out.push(entry('DEADLINES', deadline.dueAt));
  const reminder = nextReminder(g);
  if (reminder) out.push(entry('REMINDERS', reminder.at));
  if (isFinished(g.status) && g.resolvedAt) out.push(entry('FINISHED', g.resolvedAt));
  return out;
}

/** Deletes the entries of `before` that `after` no longer has, puts the new ones (null: none). */
export function handlingEntryWrites(
  before: GrievanceItem | null,
  after: GrievanceItem | null,
  { keep }: { keep?: GrievanceHandlingIndex } = {},
): TransactItem[] {
  const old = new Map((before ? handlingEntries(before) : []).map((e) => [keyString(e), e]));
  const next = new Map((after ? handlingEntries(after) : []).map((e) => [keyString(e), e]));
  const writes: TransactItem[] = [];
  for (const [k, e] of old)
    if (!next.has(k) && e.index !== keep) writes.push(GrievanceHandlingEntry.remove(GrievanceHandlingEntry.keyOf(e)));
  for (const [k, e] of next) if (!old.has(k)) writes.push(GrievanceHandlingEntry.put(e));
  return writes;
}

/**
 * The update of the grievance item from `before` to `after`: every attribute that differs, conditioned
 * on the move counter and the handling revision read, so a concurrent move, handler reply or sweep makes
 * this one re-read and retry instead of writing from a stale state. `add` moves counters on the item
 * (`replyCount`) in the same update.
 */
export function grievanceChangeWrite(
  before: GrievanceItem,
  after: GrievanceItem,
  add: Record<string, number> = {},
): TransactItem {
  const a = after as unknown as Record<string, unknown>;
  const b = before as unknown as Record<string, unknown>;
  const changed = Object.keys(a).filter(
    (f) => f !== 'pk' && f !== 'sk' && JSON.stringify(a[f]) !== JSON.stringify(b[f]),
  );
  const names: Record<string, string> = { '#moves': 'moves', '#rev': 'handlingRev' };
  const values: Record<string, unknown> = { ':moves': before.moves };
  const sets = changed.map((f, i) => {
    names[`#f${i}`] = f;
    values[`:v${i}`] = a[f] ?? null;
    return `#f${i} = :v${i}`;
  });
  const adds = Object.entries(add).map(([f, d], i) => {
    names[`#a${i}`] = f;
    values[`:a${i}`] = d;
    return `#a${i} :a${i}`;
  });
  let revCondition = 'attribute_not_exists(#rev)';
  if (before.handlingRev !== undefined) {
    revCondition = '#rev = :rev';
    values[':rev'] = before.handlingRev;
  }
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', adds.length ? `ADD ${adds.join(', ')}` : '']
    .filter(Boolean)
    .join(' ');
  return Grievance.update([before.id], {
    UpdateExpression: expression,
    ConditionExpression: `#moves = :moves AND ${revCondition}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}
