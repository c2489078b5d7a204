import { env } from '../config/env.ts';
import { PRESENT } from '../db/entity.ts';
import { page } from '../db/paging.ts';
import { isConditionFailure, queryAll, retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { Notification, NotificationCounter } from '../notifications/entities.ts';
import { logger } from '../observability/logger.ts';
import { readTags } from './anonymity.ts';
import {
  Grievance,
  GrievanceErasureAudit,
  GrievanceHandlingEntry,
  type GrievanceHandlingEntryItem,
  GrievanceNotificationRef,
  type GrievanceNotificationRefItem,
  GrievanceRead,
  GrievanceReaderRef,
  type GrievanceReaderRefItem,
  GrievanceReply,
  GrievanceStatusChange,
  type GrievanceStatusChangeItem,
} from './entities.ts';
import { notificationOf, readerOf } from './erasure-refs.ts';
import { entryAddress, handlingEntryWrites } from './handling-index.ts';
import { statusChangeMoveOf } from './legacy-keys.ts';
import { raiserOf } from './notices.ts';
import { seenWrite } from './read-state.ts';
import { GRIEVANCE_INDEX_SHARDS } from './shards.ts';
import { statsFields, statsWrites } from './stats-fields.ts';
import { raisedDeltas, totalsWrite } from './totals.ts';
import { isFinished } from './vocabulary.ts';

/** Finished grievances read per shard and run; a longer backlog is erased by the next runs. */
const PER_SHARD = 25;
const MAX_ATTEMPTS = 10;
/** Deletes per transaction when clearing a partition (DynamoDB's limit is 100). */
const CHUNK = 90;

const DAY_MS = 86_400_000;

/**
 * The retention sweep (docs/data-model.md, Grievances: retention): erases the grievances finished
 * (`resolved` or `closed`) more than `GRIEVANCE_RETENTION_DAYS` before `now`: nothing when the setting
 * is off. One Query per shard of the finished index for the due entries, then per grievance:
 * 1. one transaction deletes the grievance (conditioned on the state read: a concurrent reopen wins),
 *    its deadline and reminder entries, and moves the board totals and the raiser's own counter;
 * 2. its partition is cleared: replies and history entries, and through the sealed references
 *    (erasure-refs.ts) each reader's marker with their counter and each notification with its
 *    recipient's unread counter, each in the transaction of what it counts;
 * 3. one transaction deletes its finished entry and counts the erasure in the statistics of the day and
 *    in this run's audit item (how many, when; never what).
 * The finished entry goes last, so a run that stops halfway is completed by the next one. Statistics
 * describe what happened and are not reversed by erasure (handler statistics still count it).
 * Answers how many grievances were erased.
 */
export async function eraseExpiredGrievances(now = new Date(), retentionDays = env.grievanceRetentionDays) {
  if (retentionDays === undefined) return 0;
  const runAt = new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString();
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  const pages = await Promise.all(
    Array.from({ length: GRIEVANCE_INDEX_SHARDS }, (_, shard) =>
      GrievanceHandlingEntry.query({ key: { index: 'FINISHED', shard }, skBefore: cutoff }, page({ limit: PER_SHARD })),
    ),
  );
  let erased = 0;
  for (const entry of pages.flatMap((p) => p.items)) if (await eraseGrievance(entry, runAt)) erased++;
  return erased;
}

async function eraseGrievance(entry: GrievanceHandlingEntryItem, runAt: string): Promise<boolean> {
  if (!(await deleteGrievanceItem(entry))) return false;
  await clearPartition(entry.grievanceId);
  try {
    const stats = new Map([[runAt.slice(0, 10), new Map([[statsFields.erased, 1]])]]);
    await transact([
      GrievanceHandlingEntry.remove(entryAddress(entry), PRESENT),
      ...statsWrites(stats),
      auditWrite(runAt),
    ]);
  } catch (err) {
    if (isConditionFailure(err)) return false; // an overlapping run completed it
    throw err;
  }
  return true;
}

/** Step 1; false when the entry no longer stands for a finished grievance (reopened meanwhile). */
async function deleteGrievanceItem(entry: GrievanceHandlingEntryItem): Promise<boolean> {
  return retryOnConflict(
    async () => {
      const g = await Grievance.get({ id: entry.grievanceId }, { consistent: true });
      if (!g) return true; // erased by an earlier run that stopped before step 3
      if (!isFinished(g.status) || g.resolvedAt !== entry.at) {
        // Not this grievance's entry any more: a move rewrites entries in its transaction, so only an
        // overlapping move can get here; leave the entry to it.
        return false;
      }
      const raiserId = raiserOf(g);
      const totals = totalsWrite(new Map([...raisedDeltas(g.status, g.category)].map(([f, d]) => [f, -d])));
      await transact([
        Grievance.remove(g, {
          ConditionExpression: '#moves = :moves',
          ExpressionAttributeNames: { '#moves': 'moves' },
          ExpressionAttributeValues: { ':moves': g.moves },
        }),
        ...handlingEntryWrites(g, null, { keep: 'FINISHED' }),
        ...(totals ? [totals] : []),
        ...(raiserId ? [seenWrite(raiserId, -1)] : []),
      ]);
      return true;
    },
    // Still contended after every attempt: the next run erases it.
    { attempts: MAX_ATTEMPTS, fallback: () => false },
  );
}

/** Step 2: everything left in the grievance's partition, and what its references point to. */
async function clearPartition(grievanceId: string): Promise<void> {
  // Every kind the grievance's partition holds (entities.ts: the grievance's key), read together.
  const items = await queryAll({ pk: Grievance.key({ id: grievanceId }).pk, consistent: true });
  const plain: TransactItem[] = [];
  for (const item of items) {
    if (GrievanceReaderRef.is(item)) await eraseReader(item);
    else if (GrievanceNotificationRef.is(item)) await eraseNotification(item);
    else if (GrievanceReply.is(item)) plain.push(GrievanceReply.remove(item));
    else if (GrievanceStatusChange.is(item)) plain.push(historyEntryRemoval(item));
    // Only the kinds above share the partition (entities.ts); a new one must be erased here too.
    else logger.error('grievance erasure: an item of an unknown kind is left', { entity: item.entity });
  }
  for (let i = 0; i < plain.length; i += CHUNK) await transact(plain.slice(i, i + CHUNK));
}

/** Entries written before they stored their move number carry it in their sort key only. */
const historyEntryRemoval = (c: GrievanceStatusChangeItem) =>
  GrievanceStatusChange.remove({ grievanceId: c.grievanceId, move: c.move ?? statusChangeMoveOf(c.sk) });

/** A reader's marker and one off their own counter, with the reference. */
async function eraseReader(ref: GrievanceReaderRefItem): Promise<void> {
  const deleteRef = GrievanceReaderRef.remove(ref);
  const readerId = readerOf(ref);
  if (!readerId) return void (await transact([deleteRef]));
  // The marker is under the key of the ring that was current when it was read: one of these.
  for (const readTag of readTags(readerId, ref.grievanceId)) {
    try {
      await transact([deleteRef, GrievanceRead.remove({ readTag }, PRESENT), seenWrite(readerId, -1)]);
      return;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }
  await transact([deleteRef]); // the marker is gone already: nothing to count
}

/** A notification about the grievance, one off its recipient's unread counter when unread, with the reference. */
async function eraseNotification(ref: GrievanceNotificationRefItem): Promise<void> {
  const deleteRef = GrievanceNotificationRef.remove(ref);
  const target = notificationOf(ref);
  const erased =
    target &&
    (await retryOnConflict(
      async () => {
        const n = await Notification.get(
          { recipientId: target.recipientId, id: target.notificationId },
          { consistent: true },
        );
        if (!n) return false;
        const unread = n.readAt === null || n.readAt === undefined;
        await transact([
          deleteRef,
          Notification.remove(n, {
            // Conditioned on the read state seen: a concurrent mark-read moves the counter too.
            ConditionExpression: unread ? 'readAt = :null' : 'attribute_exists(pk) AND readAt <> :null',
            ExpressionAttributeValues: { ':null': null },
          }),
          ...(unread ? [NotificationCounter.add({ userId: target.recipientId }, { unread: -1 })] : []),
        ]);
        return true;
      },
      { attempts: MAX_ATTEMPTS, fallback: () => false },
    ));
  if (erased) return;
  await transact([deleteRef]);
}

/** This run's audit item: how many grievances it erased, and when. */
const auditWrite = (runAt: string): TransactItem =>
  GrievanceErasureAudit.add({ runAt }, { erased: 1 }, { set: { runAt } });
