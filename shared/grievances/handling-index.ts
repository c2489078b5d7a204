import type { Condition } from '../db/entity.ts';
import { keyString, type TransactItem } from '../db/table.ts';
import {
  Grievance,
  GrievanceHandlingEntry,
  type GrievanceHandlingEntryFields,
  type GrievanceHandlingEntryItem,
  type GrievanceItem,
} from './entities.ts';
import { nextDeadline, nextReminder } from './handling.ts';
import { type HandlingIndex, handlingShard } from './shards.ts';
import { isFinished } from './vocabulary.ts';

/**
 * The handling index entries of a grievance, a pure function of its state: its next deadline
 * (DEADLINES), its next reminder (REMINDERS) and, once finished, its finishing time (FINISHED). Every
 * change to a grievance writes the difference in its own transaction, so the entries never drift.
 * An entry holds the grievance id and a time derived from the grievance, never anything of a person.
 */
export function handlingEntries(g: GrievanceItem): GrievanceHandlingEntryFields[] {
  const entry = (index: HandlingIndex, at: string) => entryAddress({ index, grievanceId: g.id, at });
  const out: GrievanceHandlingEntryFields[] = [];
  const deadline = nextDeadline(g);
  if (deadline) out.push(entry('DEADLINES', deadline.dueAt));
  const reminder = nextReminder(g);
  if (reminder) out.push(entry('REMINDERS', reminder.at));
  if (isFinished(g.status) && g.resolvedAt) out.push(entry('FINISHED', g.resolvedAt));
  return out;
}

/** An entry with the shard it is stored under (a function of its grievance id, not stored on it). */
export const entryAddress = (
  e: Pick<GrievanceHandlingEntryItem, 'index' | 'grievanceId' | 'at'>,
): GrievanceHandlingEntryFields => ({
  index: e.index,
  grievanceId: e.grievanceId,
  at: e.at,
  shard: handlingShard(e.grievanceId),
});

/** Whether an entry as read is one of the grievance's current entries. */
export const isCurrentEntry = (g: GrievanceItem, e: GrievanceHandlingEntryItem) => {
  const k = keyString(GrievanceHandlingEntry.key(entryAddress(e)));
  return handlingEntries(g).some((mine) => keyString(GrievanceHandlingEntry.key(mine)) === k);
};

/** Deletes the entries of `before` that `after` no longer has, puts the new ones (null: none). */
export function handlingEntryWrites(
  before: GrievanceItem | null,
  after: GrievanceItem | null,
  { keep }: { keep?: HandlingIndex } = {},
): TransactItem[] {
  const keyed = (g: GrievanceItem | null) =>
    new Map((g ? handlingEntries(g) : []).map((e) => [keyString(GrievanceHandlingEntry.key(e)), e]));
  const old = keyed(before);
  const next = keyed(after);
  const writes: TransactItem[] = [];
  for (const [k, e] of old) if (!next.has(k) && e.index !== keep) writes.push(GrievanceHandlingEntry.remove(e));
  for (const [k, e] of next) if (!old.has(k)) writes.push(GrievanceHandlingEntry.put(e));
  return writes;
}

/**
 * The update of the grievance item from `before` to `after` (`Grievance.change`: every field that
 * differs and the board indexes it moves), conditioned on the move counter and the handling revision
 * read, so a concurrent move, handler reply or sweep makes this one re-read and retry instead of
 * writing from a stale state. `extra`: a further condition on what else the change counts on (the
 * reply count a handler reply moves).
 */
export function grievanceChangeWrite(before: GrievanceItem, after: GrievanceItem, extra?: Condition): TransactItem {
  const names: Record<string, string> = { '#moves': 'moves', '#rev': 'handlingRev' };
  const values: Record<string, unknown> = { ':moves': before.moves };
  let revCondition = 'attribute_not_exists(#rev)';
  if (before.handlingRev !== undefined) {
    revCondition = '#rev = :rev';
    values[':rev'] = before.handlingRev;
  }
  return Grievance.change(before, after, {
    ConditionExpression: [`#moves = :moves AND ${revCondition}`, extra?.ConditionExpression]
      .filter(Boolean)
      .join(' AND '),
    ExpressionAttributeNames: { ...names, ...extra?.ExpressionAttributeNames },
    ExpressionAttributeValues: { ...values, ...extra?.ExpressionAttributeValues },
  });
}
