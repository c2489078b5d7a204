import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { newSortableId } from '../db/ids.ts';
import { failedConditions, type TransactItem, transact, write } from '../db/table.ts';
import { conflict, invalid, notFound, tooLarge } from '../errors.ts';
import { logger } from '../observability/logger.ts';
import { bucketName, s3 } from '../storage/client.ts';
import { showsInline } from '../storage/media-headers.ts';
import { bytesAreOfType, HEAD_BYTES, sniffMediaType } from '../storage/media-type.ts';
import { pendingKeyOf } from '../storage/pending-uploads.ts';
import { signedObjectUrl } from '../storage/signed-object-url.ts';
import { PostUpload, type PostUploadItem, type UploadKind } from './entities.ts';
import type { RenditionName } from './model.ts';
import { inspectImage, makeRenditions } from './renditions.ts';
import { quotaExceeded, takeUploadQuota } from './upload-quota.ts';

/**
 * Post media: images and PDFs through the API (multipart, up to 4 MB), larger images and
 * documents (10 MB) and videos (200 MB) straight to the bucket with a presigned PUT. Each upload is
 * recorded with its owner, so a post can only use its author's files, and counts against its owner's
 * daily quota (upload-quota.ts).
 *
 * Media are served on the API's own origin, so no stored byte is trusted for its declared type: the
 * bytes through the API are judged by their content, and a presigned upload lands under a pending
 * prefix, is verified (its first bytes against the declared type) when it is first attached, and
 * only then copied to its key with the verified type written on the object; a refused one is deleted.
 */
export const POST_FILES_PATH = '/api/v1/files/posts/';
const MB = 1024 * 1024;
export const DIRECT_UPLOAD_MAX = 4 * MB;
const PRESIGNED_MAX = { image: 10 * MB, document: 10 * MB, video: 200 * MB } as const;
const PUT_URL_SECONDS = 15 * 60;
const DOWNLOAD_URL_SECONDS = 5 * 60;
/** Files up to this size are answered as bytes; larger ones (and videos) by a redirect to the bucket. */
const INLINE_MAX = 4 * MB;

const TYPES: Record<string, { kind: UploadKind; ext: string }> = {
  'image/jpeg': { kind: 'image', ext: 'jpg' },
  'image/png': { kind: 'image', ext: 'png' },
  'image/webp': { kind: 'image', ext: 'webp' },
  'image/gif': { kind: 'image', ext: 'gif' },
  'application/pdf': { kind: 'document', ext: 'pdf' },
  'video/mp4': { kind: 'video', ext: 'mp4' },
  'video/webm': { kind: 'video', ext: 'webm' },
};
const IMAGE_MIME = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' } as const;

export interface UploadAnswer {
  path: string;
  mimeType: string;
  sizeBytes: number;
  name: string;
  width: number | null;
  height: number | null;
}

const objectKeyOf = (id: string, ext: string) => `posts/${id}/original.${ext}`;
const renditionKeyOf = (id: string, name: RenditionName) => `posts/${id}/${name}.webp`;
export const pathOf = (u: Pick<PostUploadItem, 'id' | 'objectKey'>) =>
  `${POST_FILES_PATH}${u.id}.${u.objectKey.split('.').pop()}`;

/** A file name as shown to people: no directories, no control characters, at most 200 characters. */
function cleanName(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f).join('');
  const clean = printable.trim().slice(0, 200);
  return clean || fallback;
}

function typeError(): never {
  throw invalid(['file: only JPG, PNG, WebP or GIF images, PDF documents and MP4 or WebM videos can be attached']);
}

/** The upload id of a post file path, or null when it is not one. */
export function uploadIdOf(path: string): string | null {
  if (!path.startsWith(POST_FILES_PATH)) return null;
  const m = /^([0-9a-z]{22})\.[a-z0-9]{2,5}$/.exec(path.slice(POST_FILES_PATH.length));
  return m ? m[1] : null;
}

/** Stores one file sent through the API: images get their renditions at once. */
export async function storeDirectUpload(
  ownerId: string,
  file: { filename: string; mimeType: string; data: Buffer },
): Promise<UploadAnswer> {
  if (file.data.length > DIRECT_UPLOAD_MAX)
    throw tooLarge('The file is larger than 4 MB; request an upload URL for larger files.');
  if (file.data.length === 0) throw invalid(['file: the file is empty']);
  const id = newSortableId();
  // The type is what the bytes are (their signature), whatever the part declared; an image must also
  // decode as that same format.
  const sniffed = await sniffMediaType(file.data);
  const image = sniffed?.startsWith('image/') ? await inspectImage(file.data) : null;
  let mimeType: string;
  if (image && IMAGE_MIME[image.format] === sniffed) mimeType = sniffed;
  else if (sniffed === 'application/pdf') mimeType = sniffed;
  else typeError();
  const { kind, ext } = TYPES[mimeType];
  const objectKey = objectKeyOf(id, ext);
  const written: string[] = [];
  const put = async (key: string, body: Buffer, contentType: string) => {
    await s3().send(
      new PutObjectCommand({ Bucket: bucketName(), Key: key, Body: body, ...objectHeadersOf(contentType) }),
    );
    written.push(key);
  };
  const renditions: PostUploadItem['renditions'] = {};
  try {
    await put(objectKey, file.data, mimeType);
    if (image) {
      for (const r of await makeRenditions(file.data, image)) {
        const key = renditionKeyOf(id, r.name);
        await put(key, r.data, 'image/webp');
        renditions[r.name] = { key, width: r.width, height: r.height };
      }
    }
  } catch (err) {
    await removeObjects(written);
    throw err;
  }
  const item = PostUpload.item({
    id,
    ownerId,
    kind,
    mimeType,
    name: cleanName(file.filename, `upload.${ext}`),
    sizeBytes: file.data.length,
    width: image?.width ?? null,
    height: image?.height ?? null,
    objectKey,
    renditions,
    status: 'ready',
    createdAt: new Date().toISOString(),
    actorId: ownerId,
  });
  try {
    await grantUpload(ownerId, item);
  } catch (err) {
    // Refused (the quota) or failed: the objects were never recorded, so nothing may keep them.
    await removeObjects(written);
    throw err;
  }
  return answerOf(item);
}

/** What an object is stored with: its verified type, and a download rather than a page for documents. */
const objectHeadersOf = (contentType: string) => ({
  ContentType: contentType,
  ...(showsInline(contentType) ? {} : { ContentDisposition: 'attachment' }),
});

/** Removes objects an upload wrote but will not keep (best effort: what stays is unreachable). */
async function removeObjects(keys: string[]): Promise<void> {
  for (const key of keys) {
    await s3()
      .send(new DeleteObjectCommand({ Bucket: bucketName(), Key: key }))
      .catch((error) => logger.warn('post upload: an unused object was not removed', { key, error }));
  }
}

/** Records an upload and takes its share of the owner's daily quota, together (429 past the quota). */
async function grantUpload(ownerId: string, item: PostUploadItem): Promise<void> {
  try {
    await transact([takeUploadQuota(ownerId, item.sizeBytes), PostUpload.put(item)]);
  } catch (err) {
    if (failedConditions(err).includes(0)) throw quotaExceeded();
    throw err;
  }
}

export const answerOf = (u: PostUploadItem): UploadAnswer => ({
  path: pathOf(u),
  mimeType: u.mimeType,
  sizeBytes: u.sizeBytes,
  name: u.name,
  width: u.width,
  height: u.height,
});

/** Records a presigned upload and answers where to PUT the bytes. */
export async function createPresignedUpload(
  ownerId: string,
  req: { name: string; mimeType: string; sizeBytes: number },
): Promise<{ path: string; uploadUrl: string; expiresAt: string }> {
  const type = TYPES[req.mimeType.toLowerCase()];
  if (!type) typeError();
  const max = PRESIGNED_MAX[type.kind];
  if (req.sizeBytes > max) throw tooLarge(`A ${type.kind} can be at most ${max / MB} MB.`);
  const id = newSortableId();
  const mimeType = req.mimeType.toLowerCase();
  const objectKey = objectKeyOf(id, type.ext);
  const item = PostUpload.item({
    id,
    ownerId,
    kind: type.kind,
    mimeType,
    name: cleanName(req.name, `upload.${type.ext}`),
    sizeBytes: req.sizeBytes,
    width: null,
    height: null,
    objectKey,
    renditions: {},
    status: 'awaiting',
    createdAt: new Date().toISOString(),
    actorId: ownerId,
  });
  await grantUpload(ownerId, item);
  // Content type and length are signed, so the bucket refuses a PUT that sends anything else than what
  // was declared. The presigner leaves `content-type` out of the signature unless it is named here (it
  // adds it to its unsignable headers), which would let the uploader choose the stored type.
  const uploadUrl = await getSignedUrl(
    s3(),
    new PutObjectCommand({
      Bucket: bucketName(),
      Key: pendingKeyOf(objectKey),
      ContentType: mimeType,
      ContentLength: req.sizeBytes,
    }),
    { expiresIn: PUT_URL_SECONDS, signableHeaders: new Set(['content-type']) },
  );
  return { path: pathOf(item), uploadUrl, expiresAt: new Date(Date.now() + PUT_URL_SECONDS * 1000).toISOString() };
}

/** Whether an S3 error says the object is not there (S3 answers 403 to a missing key without s3:ListBucket). */
const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    ['NoSuchKey', 'NotFound', 'AccessDenied', 'InvalidRange'].includes(e?.name ?? '') ||
    [403, 404, 416].includes(e?.$metadata?.httpStatusCode ?? 0)
  );
};

/** Whether S3 refused a conditional request because its condition (an ETag) no longer holds. */
const isPreconditionFailure = (err: unknown) => {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'PreconditionFailed' || e?.Code === 'PreconditionFailed' || e?.$metadata?.httpStatusCode === 412;
};

/** The total size an answer to a ranged GET reports (`Content-Range: bytes 0-4099/123456`). */
const totalSizeOf = (out: GetObjectCommandOutput) =>
  Number(/\/(\d+)$/.exec(out.ContentRange ?? '')?.[1] ?? out.ContentLength ?? Number.NaN);

type Confirmation = { ok: PostUploadItem } | { refused: 'missing' | 'mismatch' };

/**
 * Confirms a presigned upload: its bytes arrived under the pending key, are no larger than declared
 * and begin as the declared type (a ranged read of the head); then copies exactly those bytes to the
 * upload's key (the copy is conditioned on the ETag that was read: a PUT in between fails it with 409
 * and nothing is copied) with the verified type written on the object (CloudFront serves the object's
 * own type: it does not pass response-content-type on), removes the pending object and marks the
 * upload ready. Bytes of another type are refused: the pending object and the record are deleted. An
 * image confirmed this way gets its renditions from the renditions consumer (asynchronously).
 *
 * An upload is confirmed once: a ready upload is never copied again, so a PUT repeated with the same
 * URL after the attach lands only under the pending prefix, is never served, and expires with it
 * (one day, its overwritten versions too: infra/stacks/data-stack.ts). Every PUT is exactly the
 * declared length (it is signed), so what is stored is what the quota was charged.
 */
async function confirmArrived(u: PostUploadItem): Promise<Confirmation> {
  if (u.status === 'ready') return { ok: u };
  const pending = { Bucket: bucketName(), Key: pendingKeyOf(u.objectKey) };
  let head: Buffer;
  let size: number;
  let etag: string | undefined;
  try {
    const out = await s3().send(new GetObjectCommand({ ...pending, Range: `bytes=0-${HEAD_BYTES - 1}` }));
    head = Buffer.from(await out.Body!.transformToByteArray());
    size = totalSizeOf(out);
    etag = out.ETag;
  } catch (err) {
    if (isMissing(err)) return (await readyMeanwhile(u)) ?? { refused: 'missing' };
    throw err;
  }
  if (!etag || !(size <= u.sizeBytes) || !(await bytesAreOfType(head, u.mimeType))) {
    await s3().send(new DeleteObjectCommand(pending));
    await write(
      PostUpload.remove(u, {
        ConditionExpression: '#s = :awaiting',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':awaiting': 'awaiting' },
      }),
      { returnValues: 'NONE' },
    ).catch((err) => logger.warn('post upload: a refused upload record was not removed', { id: u.id, error: err }));
    return { refused: 'mismatch' };
  }
  try {
    await s3().send(
      new CopyObjectCommand({
        Bucket: bucketName(),
        Key: u.objectKey,
        CopySource: `${bucketName()}/${pending.Key}`,
        // Only the bytes just checked: S3 refuses the copy (412) when the object changed since.
        CopySourceIfMatch: etag,
        MetadataDirective: 'REPLACE',
        ...objectHeadersOf(u.mimeType),
      }),
    );
  } catch (err) {
    // Another request confirmed it first and removed the pending object.
    if (isMissing(err)) return (await readyMeanwhile(u)) ?? { refused: 'missing' };
    if (isPreconditionFailure(err))
      throw conflict(
        `${pathOf(u)} was uploaded again while it was being checked; nothing was attached. Try again once the upload has finished.`,
      );
    throw err;
  }
  const updated = await write(
    PostUpload.update(u, {
      UpdateExpression: 'SET #s = :ready',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':ready': 'ready' },
    }),
  );
  await removeObjects([pending.Key]);
  return { ok: PostUpload.is(updated) ? updated : { ...u, status: 'ready' } };
}

/** The upload as another request left it, when that request confirmed it meanwhile. */
async function readyMeanwhile(u: PostUploadItem): Promise<Confirmation | null> {
  const now = await PostUpload.get(u, { consistent: true });
  return now?.status === 'ready' ? { ok: now } : null;
}

/** Makes the renditions of a presigned image once its bytes are in the bucket (the renditions consumer). */
export async function renderUpload(uploadId: string): Promise<void> {
  const u = await PostUpload.get({ id: uploadId }, { consistent: true });
  if (u?.kind !== 'image' || u.status !== 'ready' || u.renditions.w1200) return;
  const obj = await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: u.objectKey }));
  const data = Buffer.from(await obj.Body!.transformToByteArray());
  const info = await inspectImage(data);
  if (!info) return;
  const renditions: PostUploadItem['renditions'] = {};
  for (const r of await makeRenditions(data, info)) {
    const key = renditionKeyOf(u.id, r.name);
    await s3().send(
      new PutObjectCommand({ Bucket: bucketName(), Key: key, Body: r.data, ...objectHeadersOf('image/webp') }),
    );
    renditions[r.name] = { key, width: r.width, height: r.height };
  }
  await write(
    PostUpload.update(u, {
      UpdateExpression: 'SET renditions = :r, width = :w, height = :h',
      ExpressionAttributeValues: { ':r': renditions, ':w': info.width, ':h': info.height },
    }),
    { returnValues: 'NONE' },
  );
}

export interface Attachments {
  images: string[];
  videos: string[];
  documents: { url: string; name: string }[];
}

const FIELD_KIND: Record<keyof Attachments, UploadKind> = { images: 'image', videos: 'video', documents: 'document' };

/**
 * Checks that every referenced path is an upload of `ownerId` of the right kind (400 otherwise) and
 * answers the uploads plus the transaction checks that keep it so until the post is written.
 */
export async function resolveAttachments(
  ownerId: string,
  a: Attachments,
): Promise<{ uploads: Map<string, PostUploadItem>; checks: TransactItem[] }> {
  const wanted: { field: keyof Attachments; path: string; id: string | null }[] = [
    ...a.images.map((path) => ({ field: 'images' as const, path, id: uploadIdOf(path) })),
    ...a.videos.map((path) => ({ field: 'videos' as const, path, id: uploadIdOf(path) })),
    ...a.documents.map((d) => ({ field: 'documents' as const, path: d.url, id: uploadIdOf(d.url) })),
  ];
  const errors: string[] = [];
  const ids = wanted.flatMap((w) => (w.id ? [w.id] : []));
  const found = await PostUpload.getMany(
    ids.map((id) => ({ id })),
    { consistent: true },
  );
  const byId = new Map(ids.map((id, i) => [id, found[i]]));
  const uploads = new Map<string, PostUploadItem>();
  for (const w of wanted) {
    const u = w.id ? byId.get(w.id) : undefined;
    const shown = w.path.slice(0, 200);
    if (!u || u.ownerId !== ownerId || u.kind !== FIELD_KIND[w.field] || pathOf(u) !== w.path) {
      errors.push(`${w.field}: ${shown} is not a ${FIELD_KIND[w.field]} you uploaded`);
      continue;
    }
    const confirmed = await confirmArrived(u);
    if ('ok' in confirmed) uploads.set(w.path, confirmed.ok);
    else if (confirmed.refused === 'mismatch')
      errors.push(
        `${w.field}: ${shown} is not ${u.mimeType} as declared (its bytes are another type); the upload was removed`,
      );
    else errors.push(`${w.field}: ${shown} has not been uploaded yet`);
  }
  if (errors.length) throw invalid(errors);
  const checks = [...new Set([...uploads.values()].map((u) => u.id))].map((id) =>
    PostUpload.check(
      { id },
      {
        ConditionExpression: 'ownerId = :owner',
        ExpressionAttributeValues: { ':owner': ownerId },
      },
    ),
  );
  return { uploads, checks };
}

/** Upload records for paths (batch read), for views that need renditions or types. */
export async function uploadsFor(paths: string[]): Promise<Map<string, PostUploadItem>> {
  const ids = [...new Set(paths.map(uploadIdOf).filter((x): x is string => !!x))];
  const found = await PostUpload.getMany(ids.map((id) => ({ id })));
  return new Map(found.flatMap((u) => (u ? [[pathOf(u), u] as const] : [])));
}

/**
 * What `GET /files/posts/{key}` answers: the bytes of a small file, or a short-lived signed URL for
 * a large one or a video. `<id>.<ext>` is the original; `<id>.w1200.webp` / `<id>.w400.webp` renditions.
 */
export async function openPostFile(
  fileKey: string,
): Promise<{ bytes: Buffer; contentType: string } | { url: string; contentType: string }> {
  const m = /^([0-9a-z]{22})\.(?:(w1200|w400)\.webp|([a-z0-9]{2,5}))$/.exec(fileKey);
  if (!m) throw notFound('No such file.');
  // Only verified uploads are served: one still awaiting its check (attaching it runs the check) is not.
  const u = await PostUpload.get({ id: m[1] });
  if (u?.status !== 'ready') throw notFound('No such file.');
  const rendition = m[2] ? u.renditions[m[2] as RenditionName] : undefined;
  if (m[2] && !rendition) throw notFound('No such file.');
  if (!m[2] && pathOf(u) !== `${POST_FILES_PATH}${fileKey}`) throw notFound('No such file.');
  const key = rendition?.key ?? u.objectKey;
  const contentType = rendition ? 'image/webp' : u.mimeType;
  if (u.kind === 'video' || (!rendition && u.sizeBytes > INLINE_MAX))
    return { url: await signedObjectUrl(key, DOWNLOAD_URL_SECONDS, contentType), contentType };
  try {
    const obj = await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: key }));
    return { bytes: Buffer.from(await obj.Body!.transformToByteArray()), contentType };
  } catch {
    throw notFound('No such file.');
  }
}
