import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { newId } from '../db/ids.ts';
import { type Item, isConditionFailure, transact, write } from '../db/table.ts';
import { notFound } from '../errors.ts';
import { signedObjectUrl } from '../feed/uploads.ts';
import { Notification } from '../notifications/entities.ts';
import { notificationContent } from '../notifications/notifications.ts';
import { AVATARS_PREFIX } from '../people/avatars.ts';
import { getUser } from '../people/users.ts';
import { bucketName, s3 } from '../storage/client.ts';
import { eraseObjects } from '../storage/erase-objects.ts';
import { publicMediaUrl } from '../storage/public-urls.ts';
import { emailTransport } from '../transports/email.ts';
import { DataExport, DataExportClaim, type DataExportItem } from './entities.ts';
import {
  documentKey,
  EXPORT_FORMAT,
  EXPORT_KEEP_DAYS,
  EXPORT_LINK_SECONDS,
  exportedFields,
  exportPrefix,
  GRIEVANCE_STATEMENT,
  mergeSections,
  partKey,
  type Sections,
} from './export-document.ts';
import { leaseHeld, renewLease } from './lease.ts';
import { ruleOf } from './rules.ts';
import { carries, scanPage } from './table-walk.ts';
import { walkStart } from './walk-progress.ts';

/**
 * A copy of a person's data (README, "People's data: export and erasure"). The request records the
 * job; the background worker (work.ts) walks the table page by page (table-walk.ts), writing each
 * page's finds as a part in the bucket, then assembles the document, which a `GET` links to with a
 * short-lived signed URL until it is erased EXPORT_KEEP_DAYS later. The job stays as the audit record.
 */

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

/** What one stored item gives the export (a section and its view), or null. */
export function exportOf(item: Item, userId: string): { section: string; view: Item } | null {
  const rule = ruleOf(item.entity as string);
  if (!rule.section) return null;
  if (Notification.is(item)) {
    // Their own notifications, opened; never a grievance one (the channel is not exported).
    if (item.recipientId !== userId) return null;
    const content = notificationContent(item);
    if (!content || content.anonymous) return null;
    const { anonymous: _, ...said } = content;
    return { section: rule.section, view: { id: item.id, ...said, readAt: item.readAt, createdAt: item.createdAt } };
  }
  if (!carries(item, { userId })) return null;
  const view = exportedFields(item);
  // Another person's profile appears only as the link it has with them (their manager, their reports).
  if (item.entity === 'User' && item.id !== userId)
    return { section: 'people', view: { id: item.id, name: item.name, managerId: item.managerId } };
  return { section: rule.section, view };
}

/** One step: a page of the table (its finds written as a part), or the assembly. Null when the lease is lost. */
export async function exportStep(job: DataExportItem, lease: string): Promise<DataExportItem | null> {
  if (job.status !== 'running') return job;
  if (job.walk.tableDone) return assemble(job, lease);
  const page = await scanPage(job.walk.cursor);
  const sections: Sections = {};
  for (const item of page.items) {
    const found = exportOf(item, job.userId);
    if (found) mergeSections(sections, { [found.section]: [found.view] });
  }
  let parts = job.parts;
  if (Object.keys(sections).length) {
    await putJson(partKey(job.id, parts), sections);
    parts++;
  }
  const counts = { ...job.counts };
  for (const [name, items] of Object.entries(sections)) counts[name] = (counts[name] ?? 0) + items.length;
  return record(job, lease, {
    walk: {
      ...job.walk,
      cursor: page.next,
      pages: job.walk.pages + 1,
      scanned: job.walk.scanned + page.items.length,
      tableDone: page.next === null,
    },
    counts,
    parts,
  });
}

/** The document from the parts, media linked by signed URLs; then the parts go. */
async function assemble(job: DataExportItem, lease: string): Promise<DataExportItem | null> {
  const sections: Sections = {};
  for (let n = 0; n < job.parts; n++) mergeSections(sections, (await getJson(partKey(job.id, n))) as Sections);
  const linkSeconds = EXPORT_KEEP_DAYS * 86_400;
  for (const upload of sections.uploads ?? []) {
    const keys = [upload.objectKey, ...Object.values(upload.renditions ?? {}).map((r: any) => r.key)].filter(Boolean);
    upload.links = await Promise.all(keys.map((k: string) => publicMediaUrl(k, linkSeconds)));
  }
  for (const profile of sections.profile ?? []) {
    const image = typeof profile.image === 'string' ? profile.image : '';
    const key = image.split('/files/avatars/')[1];
    if (key) profile.imageLink = await publicMediaUrl(`${AVATARS_PREFIX}${key}`, linkSeconds);
  }
  const now = new Date();
  await putJson(documentKey(job.id), {
    format: EXPORT_FORMAT,
    subject: job.userId,
    requestedAt: job.requestedAt,
    generatedAt: now.toISOString(),
    grievanceChannel: GRIEVANCE_STATEMENT,
    mediaLinksValidUntil: new Date(now.getTime() + linkSeconds * 1000).toISOString(),
    sections,
  });
  for (let n = 0; n < job.parts; n++)
    await s3().send(new DeleteObjectCommand({ Bucket: bucketName(), Key: partKey(job.id, n) }));
  return record(job, lease, {
    status: 'ready',
    readyAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + EXPORT_KEEP_DAYS * 86_400_000).toISOString(),
  });
}

/** Erases a ready export's document once its time is up; the record stays (`expired`). */
export async function expireExport(job: DataExportItem, lease: string, now = new Date()): Promise<boolean> {
  if (job.status !== 'ready' || !job.expiresAt || Date.parse(job.expiresAt) > now.getTime()) return false;
  await eraseObjects(exportPrefix(job.id));
  return (await record(job, lease, { status: 'expired', leaseUntil: undefined })) !== null;
}

async function record(
  job: DataExportItem,
  lease: string,
  change: Partial<DataExportItem>,
): Promise<DataExportItem | null> {
  const next = { ...job, leaseUntil: renewLease(lease), ...change };
  try {
    await write(DataExport.change(job, next, leaseHeld(lease)));
    return next;
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}

async function putJson(key: string, value: unknown): Promise<void> {
  await s3().send(
    new PutObjectCommand({
      Bucket: bucketName(),
      Key: key,
      Body: JSON.stringify(value),
      ContentType: 'application/json',
    }),
  );
}

async function getJson(key: string): Promise<unknown> {
  const out = await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: key }));
  return JSON.parse(await out.Body!.transformToString());
}
