import { newId, newSortableId } from '../db/ids.ts';
import { retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { conflict, notFound } from '../errors.ts';
import { User } from '../people/entities.ts';
import { getUser } from '../people/users.ts';
import { signedObjectUrl } from '../storage/signed-object-url.ts';
import { DataExport, DataExportClaim, type DataExportItem } from './entities.ts';
import { documentKey, EXPORT_LINK_SECONDS } from './export-document.ts';
import { jobProgressView, walkStart } from './walk-progress.ts';

/**
 * The export routes' side of a copy of a person's data (docs/people-data.md):
 * recording the job and reading it. The walk itself is the worker's (export.ts), kept apart so that
 * these small functions carry none of it.
 */

/** How often a person may have a new copy of their own data made (a super admin's are not limited). */
export const SELF_EXPORT_EVERY_MS = 24 * 60 * 60 * 1000;

/** What the export routes answer. */
export async function exportView(x: DataExportItem) {
  return {
    id: x.id,
    userId: x.userId,
    requestedBy: x.requestedBy,
    status: x.status,
    requestedAt: x.requestedAt,
    readyAt: x.readyAt,
    expiresAt: x.expiresAt,
    ...jobProgressView(x),
    notice: x.notice ? { email: x.notice.email, inApp: x.notice.inApp } : null,
    url:
      x.status === 'ready' ? await signedObjectUrl(documentKey(x.id), EXPORT_LINK_SECONDS, 'application/json') : null,
  };
}

/** The 409 of an export asked once the person's erasure has begun. */
const erasing = () => conflict('This person is being erased: their data can no longer be exported.');

/**
 * Starts an export of `userId`'s data. The person's own request answers their export still running (or
 * the day's ready one); a super admin's request is always a job of its own (never the person's), and
 * records with it the notice owed to the person (an e-mail, and a notification if they can sign in),
 * which the worker sends (work.ts). 409 once the person's erasure has begun: the job is created on
 * condition that the person carries no erasure mark.
 */
export async function startExport(userId: string, requestedBy: string, now = new Date()): Promise<DataExportItem> {
  const own = requestedBy === userId;
  return retryOnConflict(
    async () => {
      const user = await getUser(userId, true);
      if (!user) throw notFound('No such person.');
      if (user.erasureId) throw erasing();
      const claim = own ? await DataExportClaim.get({ userId }, { consistent: true }) : undefined;
      if (claim) {
        // (A claim written before 0.4.0 may point to a super admin's export: never answered as theirs.)
        const read = await DataExport.get({ id: claim.exportId }, { consistent: true });
        const latest = read?.requestedBy === userId ? read : undefined;
        if (latest?.status === 'running') return latest;
        // A person's own copy at most once a day (each walks the whole table): the day's copy is answered.
        const fresh =
          latest?.status === 'ready' && now.getTime() - Date.parse(latest.requestedAt) < SELF_EXPORT_EVERY_MS;
        if (fresh) return latest;
      }
      const job = DataExport.item({
        id: newId(),
        userId,
        requestedBy,
        requestedAt: now.toISOString(),
        status: 'running',
        walk: walkStart(),
        counts: {},
        parts: 0,
        readyAt: null,
        expiresAt: null,
        ...(own
          ? {}
          : {
              notice: {
                email: 'pending',
                inApp: user.status === 'active' ? 'pending' : null,
                notificationId: newSortableId(now),
                attempts: 0,
              },
            }),
      });
      const writes: TransactItem[] = [
        DataExport.create(job),
        // No export once the erasure has begun (its mark is set in the transaction that starts it).
        User.check({ id: userId }, { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(erasureId)' }),
      ];
      if (own)
        writes.push(
          DataExportClaim.put(
            { userId, exportId: job.id, at: job.requestedAt },
            claim
              ? { ConditionExpression: 'exportId = :was', ExpressionAttributeValues: { ':was': claim.exportId } }
              : { ConditionExpression: 'attribute_not_exists(pk)' },
          ),
        );
      await transact(writes);
      return job;
    },
    // The person changed, or (their own) another request started one meanwhile: read again.
    { attempts: 3, exhausted: () => conflict('The person changed while this request ran. Try again.') },
  );
}

/**
 * An export of this person, as its routes read it: 404 unless it is theirs. The person reads a super
 * admin's export of them too (they are told of it, and it is their data).
 */
export async function readExport(userId: string, exportId: string): Promise<DataExportItem> {
  const x = await DataExport.get({ id: exportId }, { consistent: true });
  if (!x || x.userId !== userId) throw notFound('No such export.');
  return x;
}
