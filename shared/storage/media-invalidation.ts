import { randomUUID } from 'node:crypto';
import { CloudFrontClient, CreateInvalidationCommand } from '@aws-sdk/client-cloudfront';
import { awsClient } from '../aws/clients.ts';
import { fetchJsonParameter } from '../config/json-parameters.ts';

/**
 * Erased media leave the edge: deployed with the public media behaviours (infra/stacks/edge-stack.ts),
 * CloudFront caches the objects under `posts/` and `avatars/` (their signed URLs live about a day,
 * shared/storage/public-urls.ts), so erasing an object's versions in the bucket is followed by an
 * invalidation of its path on the distribution, before the erasure goes on. The distribution is
 * named by the edge stack's media signing parameter (`MEDIA_SIGNING_PARAMETER`, `distributionId`), or
 * directly by `MEDIA_DISTRIBUTION_ID` (tests, or a deployment that wants it in the environment).
 * Without it (the local runtime, a deployment without a media signing key, where no media are served
 * through CloudFront) there is nothing cached at an edge, and this is a no-op (docs/deployment.md).
 */
export const EDGE_CACHED_PREFIXES = ['posts/', 'avatars/'] as const;

/** Paths of one invalidation: CloudFront takes up to 3,000 exact paths in progress per distribution. */
const PATHS_PER_INVALIDATION = 1000;

let client: CloudFrontClient | undefined;
const cloudFront = () => (client ??= awsClient('cloudfront', new CloudFrontClient({})));

/** The distribution that serves public media (`MEDIA_DISTRIBUTION_ID` given directly, or the parameter's), or null. */
async function mediaDistribution(): Promise<string | null> {
  if (process.env.MEDIA_DISTRIBUTION_ID) return process.env.MEDIA_DISTRIBUTION_ID;
  const parameter = process.env.MEDIA_SIGNING_PARAMETER;
  if (!parameter) return null;
  const value = await fetchJsonParameter<{ distributionId?: string }>(parameter);
  return value.distributionId ?? null;
}

/** `posts/a b/x.webp` → `/posts/a%20b/x.webp`: the path CloudFront caches the object under. */
const pathOf = (key: string) => `/${key.split('/').map(encodeURIComponent).join('/')}`;

/**
 * Removes these object keys from the edge caches (those under the edge-cached prefixes; others are
 * never served by CloudFront). Answers how many paths were invalidated (0 when there is no distribution).
 */
export async function invalidateMedia(keys: string[]): Promise<number> {
  const paths = [...new Set(keys.filter((k) => EDGE_CACHED_PREFIXES.some((p) => k.startsWith(p))).map(pathOf))];
  if (!paths.length) return 0;
  const distributionId = await mediaDistribution();
  if (!distributionId) return 0;
  for (let i = 0; i < paths.length; i += PATHS_PER_INVALIDATION) {
    const items = paths.slice(i, i + PATHS_PER_INVALIDATION);
    await cloudFront().send(
      new CreateInvalidationCommand({
        DistributionId: distributionId,
        InvalidationBatch: { CallerReference: randomUUID(), Paths: { Quantity: items.length, Items: items } },
      }),
    );
  }
  return paths.length;
}
