import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { Item } from '../db/table.ts';
import { Post } from '../feed/entities.ts';
import { Notification } from '../notifications/entities.ts';
import { notificationContent, type ReadMark, readMarkOf, readTimeOf } from '../notifications/notifications.ts';
import { AVATARS_PREFIX } from '../people/avatars.ts';
import { User } from '../people/entities.ts';
import { bucketName, s3 } from '../storage/client.ts';
import { eraseObjects } from '../storage/erase-objects.ts';
import { publicMediaUrl } from '../storage/public-urls.ts';
import { DataExport, type DataExportItem } from './entities.ts';
import {
  documentKey,
  EXPORT_FORMAT,
  EXPORT_KEEP_DAYS,
  EXPORTED,
  type ExportContext,
  exportPrefix,
  GRIEVANCE_STATEMENT,
  mergeSections,
  partKey,
  partsPrefix,
  pick,
  REPORT_FIELDS,
  type Sections,
  SURVEY_STATEMENT,
} from './export-document.ts';
import { renewLease, writeHeld } from './lease.ts';
import { ruleOf } from './rules.ts';
import { scanPage } from './table-walk.ts';
import { advanced } from './walk-progress.ts';

/**
 * A copy of a person's data (docs/people-data.md). The request records the
 * job; the background worker (work.ts) walks the table page by page (table-walk.ts), writing each
 * page's finds as a part in the bucket, then assembles the document, which a `GET` links to with a
 * short-lived signed URL until it is erased EXPORT_KEEP_DAYS later. The job stays as the audit record.
 */

/** What one stored item gives the export (a section and its view, as EXPORTED declares it), or null. */
export async function exportOf(
  item: Item,
  userId: string,
  ctx: ExportContext,
): Promise<{ section: string; view: Item } | null> {
  const kind = item.entity as string;
  const rule = ruleOf(kind);
  if (!rule?.section) return null;
  if (Notification.is(item)) {
    // Their own notifications, opened; never a grievance one (the channel is not exported).
    if (item.recipientId !== userId) return null;
    const content = notificationContent(item);
    if (!content || content.anonymous) return null;
    // The name spans (NotificationContent.names) are the service's bookkeeping, not what it said.
    const { anonymous: _, names: _names, ...said } = content;
    return {
      section: rule.section,
      view: {
        id: item.id,
        ...said,
        readAt: readTimeOf(item, (await ctx.readMark?.(userId)) ?? null),
        createdAt: item.createdAt,
      },
    };
  }
  // Another person's profile appears only as the link it has with them: their report.
  if (User.is(item) && item.id !== userId)
    return item.managerId === userId ? { section: 'people', view: pick(item, REPORT_FIELDS) } : null;
  const declared = EXPORTED[kind];
  if (!declared || !(await declared.about(item, userId, ctx))) return null;
  return { section: rule.section, view: pick(item, declared.fields) };
}

/** What one export step reads once: whether posts are shown (exist, not hidden), the person's read-up-to mark. */
export function postsShown(): ExportContext {
  const known = new Map<string, Promise<boolean>>();
  const marks = new Map<string, Promise<ReadMark | null>>();
  return {
    readMark: (userId) => {
      let mark = marks.get(userId);
      if (!mark) {
        mark = readMarkOf(userId);
        marks.set(userId, mark);
      }
      return mark;
    },
    postShown: (postId) => {
      let shown = known.get(postId);
      if (!shown) {
        shown = Post.get({ id: postId }, { consistent: true }).then((p) => !!p && !p.hidden);
        known.set(postId, shown);
      }
      return shown;
    },
  };
}

/** Why an export stopped when its person's erasure began (no personal data). */
export const STOPPED_BY_ERASURE = 'stopped: the person is being erased';

/** Whether the person may still have their data exported: not gone, and no erasure begun. */
async function stillExportable(userId: string): Promise<boolean> {
  const person = await User.get({ id: userId }, { consistent: true });
  return !!person && !person.erasureId;
}

/**
 * An export whose person's erasure has begun stops: its objects are erased and it is marked `failed`
 * with the reason (a notice still owed is dropped by its delivery, export-notice.ts).
 */
async function stopForErasure(job: DataExportItem, lease: string): Promise<DataExportItem | null> {
  await eraseObjects(exportPrefix(job.id));
  return record(job, lease, { status: 'failed', error: STOPPED_BY_ERASURE, retryAt: undefined });
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
  if (!(await stillExportable(job.userId))) return stopForErasure(job, lease);
  if (job.walk.tableDone) return assemble(job, lease);
  const ctx = postsShown();
  const sections: Sections = {};
  let walk = job.walk;
  let bytes = 0;
  for (let pages = 0; pages < STEP_PAGES && !walk.tableDone && bytes < PART_BYTES; pages++) {
    const page = await scanPage(walk.cursor);
    for (const item of page.items) {
      const found = await exportOf(item, job.userId, ctx);
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
    // An erasure that began while this step walked: the part just written goes with the rest.
    if (!(await stillExportable(job.userId))) return stopForErasure(job, lease);
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
    surveys: SURVEY_STATEMENT,
    mediaLinksValidUntil: new Date(now.getTime() + linkSeconds * 1000).toISOString(),
    sections,
  });
  // An erasure that began while it was assembled: the document does not outlive it.
  if (!(await stillExportable(job.userId))) return stopForErasure(job, lease);
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
