import {
  DeleteObjectsCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  type ObjectIdentifier,
} from '@aws-sdk/client-s3';
import { bucketName, s3 } from './client.ts';
import { invalidateMedia } from './media-invalidation.ts';

/**
 * Removes every object under a key prefix, every version of it and every delete marker: the bucket is
 * versioned (infra/stacks/data-stack.ts), so a plain delete would only hide the bytes behind a marker.
 * The local S3 emulator keeps no versions and refuses the version listing: there a
 * key is its only version, listed and deleted as such (docs/deployment.md, local vs deployed).
 * Objects the public feed serves through CloudFront are invalidated there first (media-invalidation.ts;
 * a no-op locally): a failed invalidation fails the erasure step before anything is deleted, so the
 * step's retry invalidates them again. The invalidation takes effect at the edges within minutes, after
 * the objects are gone from the bucket, so no edge fetches them again.
 * Answers how many versions (or objects) went.
 */
export async function eraseObjects(prefix: string): Promise<number> {
  let erased = 0;
  for (;;) {
    const batch = await listBatch(prefix);
    if (!batch.length) return erased;
    await invalidateMedia(batch.map((o) => o.Key!));
    const out = await s3().send(
      new DeleteObjectsCommand({ Bucket: bucketName(), Delete: { Objects: batch, Quiet: true } }),
    );
    if (out.Errors?.length) throw new Error(`erasing ${prefix}: ${out.Errors[0].Code} ${out.Errors[0].Message}`);
    erased += batch.length;
  }
}

/** What the local emulator answers to a version listing (S3 itself lists versions). */
const EMULATOR_REFUSALS = new Set(['NotImplemented', 'MethodNotAllowed']);

/** Up to 1,000 versions (or, without versioning, keys) under the prefix. */
async function listBatch(prefix: string): Promise<ObjectIdentifier[]> {
  try {
    const out = await s3().send(new ListObjectVersionsCommand({ Bucket: bucketName(), Prefix: prefix }));
    return (
      [...(out.Versions ?? []), ...(out.DeleteMarkers ?? [])]
        .filter((v) => v.Key)
        // A version written before versioning was enabled is `null`, and goes only when named as such.
        .map((v) => ({ Key: v.Key!, ...(v.VersionId ? { VersionId: v.VersionId } : {}) }))
    );
  } catch (err) {
    if (!EMULATOR_REFUSALS.has((err as { name?: string }).name ?? '')) throw err;
    const out = await s3().send(new ListObjectsV2Command({ Bucket: bucketName(), Prefix: prefix }));
    return (out.Contents ?? []).filter((o) => o.Key).map((o) => ({ Key: o.Key! }));
  }
}

/** Where a listing of versions goes on from (S3's key and version-id markers). */
export interface VersionMarker {
  key: string;
  versionId: string;
}

/**
 * One page (up to `pageSize` listed) of the versions under a prefix that are no longer current,
 * erased; the current versions stay. Answers how many went and where the next page starts (none: the
 * listing is done). For derived objects whose every old version may hold what an erasure removed from
 * the current one (the whole lists' documents). The local emulator keeps no old versions: nothing to do.
 */
export async function eraseOldVersionsPage(
  prefix: string,
  from: VersionMarker | undefined,
  pageSize = 1000,
): Promise<{ erased: number; next: VersionMarker | undefined }> {
  let out: Awaited<ReturnType<typeof listVersions>>;
  try {
    out = await listVersions(prefix, from, pageSize);
  } catch (err) {
    if (EMULATOR_REFUSALS.has((err as { name?: string }).name ?? '')) return { erased: 0, next: undefined };
    throw err;
  }
  const old: ObjectIdentifier[] = [...(out.Versions ?? []), ...(out.DeleteMarkers ?? [])]
    .filter((v) => v.Key && v.VersionId && !v.IsLatest)
    .map((v) => ({ Key: v.Key!, VersionId: v.VersionId! }));
  if (old.length) {
    const done = await s3().send(
      new DeleteObjectsCommand({ Bucket: bucketName(), Delete: { Objects: old, Quiet: true } }),
    );
    if (done.Errors?.length) throw new Error(`erasing old versions under ${prefix}: ${done.Errors[0].Code}`);
  }
  const next =
    out.IsTruncated && out.NextKeyMarker
      ? { key: out.NextKeyMarker, versionId: out.NextVersionIdMarker ?? '' }
      : undefined;
  return { erased: old.length, next };
}

const listVersions = (prefix: string, from: VersionMarker | undefined, pageSize: number) =>
  s3().send(
    new ListObjectVersionsCommand({
      Bucket: bucketName(),
      Prefix: prefix,
      MaxKeys: pageSize,
      ...(from ? { KeyMarker: from.key, ...(from.versionId ? { VersionIdMarker: from.versionId } : {}) } : {}),
    }),
  );
