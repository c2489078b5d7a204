import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { transact } from '../db/table.ts';
import { listChange, REMOVED_REV } from '../documents/changes.ts';
import { DocumentChange } from '../documents/entities.ts';
import { attendanceDocDate, foldAttendanceDay } from '../hr/attendance-day.ts';
import { User } from '../people/entities.ts';
import { foldRoster, ROSTER } from '../people/roster.ts';
import { companyDate } from '../util/time.ts';

/**
 * The whole lists' stream consumer (functions/stream/whole-lists.ts): a batch's change items name the
 * documents to fold; a removed profile (an erasure's last step) becomes the roster's tombstone, folded
 * the same way. Filters: `wholeListFilters`.
 */
export const wholeListFilters: Record<string, unknown>[] = [
  { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { entity: { S: [DocumentChange.name] } } } },
  { eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: [User.name] } } } },
];

const plain = (image: Record<string, unknown> | undefined) =>
  image ? unmarshall(image as Record<string, AttributeValue>) : undefined;

/** Folds every document a batch changed; throws (the stream retries the batch) when a write fails. */
export async function foldChangedLists(records: DynamoDBRecord[]): Promise<void> {
  const docs = new Set<string>();
  const removed: string[] = [];
  for (const r of records) {
    const item = plain((r.eventName === 'REMOVE' ? r.dynamodb?.OldImage : r.dynamodb?.NewImage) as never);
    if (!item) continue;
    if (item.entity === DocumentChange.name) docs.add(String(item.doc));
    else if (item.entity === User.name && r.eventName === 'REMOVE') removed.push(String(item.id));
  }
  for (const id of removed) await transact([listChange(ROSTER, id, REMOVED_REV, null)]);
  if (removed.length) docs.add(ROSTER);
  for (const doc of docs) {
    if (doc === ROSTER) await foldRoster();
    else {
      const date = attendanceDocDate(doc);
      if (date) await foldAttendanceDay(date);
    }
  }
}

/** The refresh (a schedule): every document built again from the table, healing whatever drifted. */
export async function refreshLists(now = new Date()): Promise<void> {
  await foldRoster({ full: true });
  await foldAttendanceDay(companyDate(now), { full: true });
}
