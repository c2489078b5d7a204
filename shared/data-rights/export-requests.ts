import { newId } from '../db/ids.ts';
import { isConditionFailure, transact } from '../db/table.ts';
import { notFound } from '../errors.ts';
import { getUser } from '../people/users.ts';
import { signedObjectUrl } from '../storage/signed-object-url.ts';
import { emailTransport } from '../transports/email.ts';
import { DataExport, DataExportClaim, type DataExportItem } from './entities.ts';
import { documentKey, EXPORT_LINK_SECONDS } from './export-document.ts';
import { walkStart } from './walk-progress.ts';

/**
 * The export routes' side of a copy of a person's data (README, "People's data: export and erasure"):
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
    status: x.status,
    requestedAt: x.requestedAt,
    readyAt: x.readyAt,
    expiresAt: x.expiresAt,
    progress: { pages: x.walk.pages, scanned: x.walk.scanned },
    counts: x.counts,
    url:
      x.status === 'ready' ? await signedObjectUrl(documentKey(x.id), EXPORT_LINK_SECONDS, 'application/json') : null,
  };
}

/**
 * Starts an export of `userId`'s data, or answers the one still running. A super admin's export of
 * somebody else tells that person by e-mail (a person who left cannot sign in to see a notification).
 */
export async function startExport(userId: string, requestedBy: string, now = new Date()): Promise<DataExportItem> {
  const user = await getUser(userId, true);
  if (!user) throw notFound('No such person.');
  const claim = await DataExportClaim.get({ userId }, { consistent: true });
  if (claim) {
    const latest = await DataExport.get({ id: claim.exportId }, { consistent: true });
    if (latest?.status === 'running') return latest;
    // A person's own copy at most once a day (each walks the whole table): the day's copy is answered.
    const ownAgain = requestedBy === userId && latest?.requestedBy === userId && latest.status === 'ready';
    if (ownAgain && now.getTime() - Date.parse(latest.requestedAt) < SELF_EXPORT_EVERY_MS) return latest;
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
  });
  try {
    await transact([
      DataExport.create(job),
      DataExportClaim.put(
        { userId, exportId: job.id, at: job.requestedAt },
        claim
          ? { ConditionExpression: 'exportId = :was', ExpressionAttributeValues: { ':was': claim.exportId } }
          : { ConditionExpression: 'attribute_not_exists(pk)' },
      ),
    ]);
  } catch (err) {
    // Another request started one meanwhile: answer that one.
    if (!isConditionFailure(err)) throw err;
    const now2 = await DataExportClaim.get({ userId }, { consistent: true });
    const other = now2 && (await DataExport.get({ id: now2.exportId }, { consistent: true }));
    if (other) return other;
    throw err;
  }
  if (requestedBy !== userId) {
    await emailTransport().send({
      to: user.email,
      subject: 'A copy of your data was requested',
      body: `Hello ${user.name},\n\nOn ${now.toUTCString()} an administrator of the workplace platform started an export of the data it holds about you (a copy, as data protection law entitles you to). If you did not ask for it, you may ask your company why.\n`,
    });
  }
  return job;
}

/** An export of this person, as its routes read it: 404 unless it is theirs. */
export async function readExport(userId: string, exportId: string): Promise<DataExportItem> {
  const x = await DataExport.get({ id: exportId }, { consistent: true });
  if (!x || x.userId !== userId) throw notFound('No such export.');
  return x;
}
