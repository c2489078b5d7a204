import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { Item } from '../db/table.ts';
import { Notification } from '../notifications/entities.ts';
import { notificationContent } from '../notifications/notifications.ts';
import { AVATARS_PREFIX } from '../people/avatars.ts';
import { bucketName, s3 } from '../storage/client.ts';
import { eraseObjects } from '../storage/erase-objects.ts';
import { publicMediaUrl } from '../storage/public-urls.ts';
import { DataExport, type DataExportItem } from './entities.ts';
import {
  documentKey,
  EXPORT_FORMAT,
  EXPORT_KEEP_DAYS,
  exportedFields,
  exportPrefix,
  GRIEVANCE_STATEMENT,
  mergeSections,
  partKey,
  partsPrefix,
  type Sections,
} from './export-document.ts';
import { renewLease, writeHeld } from './lease.ts';
import { ruleOf } from './rules.ts';
import { carries, scanPage } from './table-walk.ts';
import { advanced } from './walk-progress.ts';

/**
 * A copy of a person's data (README, "People's data: export and erasure"). The request records the
 * job; the background worker (work.ts) walks the table page by page (table-walk.ts), writing each
 * page's finds as a part in the bucket, then assembles the document, which a `GET` links to with a
 * short-lived signed URL until it is erased EXPORT_KEEP_DAYS later. The job stays as the audit record.
 */

/** What one stored item gives the export (a section and its view), or null. */
export function exportOf(item: Item, userId: string): { section: string; view: Item } | null {
  const rule = ruleOf(item.entity as string);
  if (!rule?.section) return null;
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

/** Pages one step walks at most, and the finds (JSON bytes) after which it writes its part. */
const STEP_PAGES = 25;
const PART_BYTES = 1_000_000;

/**
 * One step: pages of the table until a part's worth of finds (or STEP_PAGES pages, or the table's end),
 * written as one part, then the position recorded; or, the table done, the assembly. A person with many
 * items thus has few parts, and a step that stops before its record leaves nothing counted twice (its
 * part is written again under the same number by the next). Null when the lease is lost.
 */
export async function exportStep(job: DataExportItem, lease: string): Promise<DataExportItem | null> {
  if (job.status !== 'running') return job;
  if (job.walk.tableDone) return assemble(job, lease);
  const sections: Sections = {};
  let walk = job.walk;
  let bytes = 0;
  for (let pages = 0; pages < STEP_PAGES && !walk.tableDone && bytes < PART_BYTES; pages++) {
    const page = await scanPage(walk.cursor);
    for (const item of page.items) {
      const found = exportOf(item, job.userId);
      if (!found) continue;
      mergeSections(sections, { [found.section]: [found.view] });
      bytes += JSON.stringify(found.view).length;
    }
    walk = advanced(walk, page);
  }
  let parts = job.parts;
  if (Object.keys(sections).length) {
    await putJson(partKey(job.id, parts), sections);
    parts++;
  }
  const counts = { ...job.counts };
  for (const [name, items] of Object.entries(sections)) counts[name] = (counts[name] ?? 0) + items.length;
  return record(job, lease, { walk, counts, parts });
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
  await eraseObjects(partsPrefix(job.id));
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
  return writeHeld(DataExport, job, { ...job, leaseUntil: renewLease(lease), ...change }, lease);
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
