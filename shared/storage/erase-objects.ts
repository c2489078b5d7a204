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
