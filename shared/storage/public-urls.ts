import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl as cloudFrontSignedUrl } from '@aws-sdk/cloudfront-signer';
import { getSignedUrl as s3SignedUrl } from '@aws-sdk/s3-request-presigner';
import { fetchJsonParameter } from '../config/json-parameters.ts';
import { fetchSecret } from '../config/secrets.ts';
import { logger } from '../observability/logger.ts';
import { bucketName, s3 } from './client.ts';

/**
 * Public media URLs (the public Office Updates feed): links that work without a
 * session for about a day.
 *
 * Deployed, they are CloudFront signed URLs (canned policy) of the distribution's media behaviours
 * (`<base>/<object key>` for keys under `posts/` and `avatars/`, infra/stacks/edge-stack.ts): a
 * presigned S3 URL would die with the Lambda role's temporary credentials (hours), whatever its
 * expiry says. The signing settings:
 *
 * - `MEDIA_BASE_URL`, `MEDIA_KEY_PAIR_ID`, `MEDIA_PRIVATE_KEY` (PEM) given directly (tests, or a
 *   deployment that wants them in the environment), or
 * - `MEDIA_SIGNING_PARAMETER`: an SSM parameter the edge stack writes, `{"baseUrl","keyPairId"}`, and
 *   `MEDIA_SIGNING_SECRET`: the Secrets Manager secret (name or ARN) holding the private key PEM.
 *   Both are read through Powertools Parameters (shared/config/secrets.ts), once per instance.
 *
 * Without them (the local runtime, LocalStack, a deployment without a signing key) the URL is an S3
 * presigned GET, with a warning once per instance when deployed (the URL may expire early).
 */
export interface MediaSigning {
  baseUrl: string;
  keyPairId: string;
  privateKey: string;
}

let signing: Promise<MediaSigning | null> | undefined;
let warned = false;

async function loadSigning(): Promise<MediaSigning | null> {
  const direct = {
    baseUrl: process.env.MEDIA_BASE_URL,
    keyPairId: process.env.MEDIA_KEY_PAIR_ID,
    privateKey: process.env.MEDIA_PRIVATE_KEY,
  };
  const parameterName = process.env.MEDIA_SIGNING_PARAMETER;
  const secretId = process.env.MEDIA_SIGNING_SECRET;
  if (!direct.privateKey && secretId) direct.privateKey = await fetchSecret(secretId);
  if ((!direct.baseUrl || !direct.keyPairId) && parameterName) {
    const value = await fetchJsonParameter<{ baseUrl?: string; keyPairId?: string }>(parameterName);
    direct.baseUrl ??= value.baseUrl;
    direct.keyPairId ??= value.keyPairId;
  }
  const { baseUrl, keyPairId, privateKey } = direct;
  return baseUrl && keyPairId && privateKey ? { baseUrl: baseUrl.replace(/\/+$/, ''), keyPairId, privateKey } : null;
}

/** The signing settings, loaded once per instance (a failed load is retried on the next call). */
export function mediaSigning(): Promise<MediaSigning | null> {
  signing ??= loadSigning().catch((error) => {
    signing = undefined;
    throw error;
  });
  return signing;
}

/** Forgets the cached settings (tests). */
export function resetMediaSigning(): void {
  signing = undefined;
  warned = false;
}

/** `posts/a b/x.webp` → `posts/a%20b/x.webp` (each segment encoded, slashes kept). */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/**
 * What browsers are told about a public media object: it never changes under its key (every upload
 * and rendition has a new one). Deployed, CloudFront's media response headers policy sets it
 * (infra/stacks/edge-stack.ts); on an S3 presigned URL it is a signed `response-cache-control`.
 */
export const MEDIA_CACHE_CONTROL = 'public, max-age=86400, immutable';

/**
 * URLs are signed as of the start of the current window, so every answer of one window carries the
 * same URL for an object: browsers and the edge cache the media (and the public answers that list
 * them) instead of fetching every image again on each page view. A URL thus lives `ttlSeconds` minus
 * up to one window (23 to 24 hours for a day), still "about a day".
 */
export const SIGNING_WINDOW_SECONDS = 3600;

export function signingWindow(ttlSeconds: number, now = Date.now()): { signedAt: Date; expiresAt: Date } {
  const start = Math.floor(now / 1000 / SIGNING_WINDOW_SECONDS) * SIGNING_WINDOW_SECONDS;
  return { signedAt: new Date(start * 1000), expiresAt: new Date((start + ttlSeconds) * 1000) };
}

/** A URL that GETs (ranges included) the bucket object `key` without a session for `ttlSeconds`. */
export async function publicMediaUrl(key: string, ttlSeconds: number): Promise<string> {
  const s = await mediaSigning();
  const { signedAt, expiresAt } = signingWindow(ttlSeconds);
  if (s) {
    return cloudFrontSignedUrl({
      url: `${s.baseUrl}/${encodeKey(key)}`,
      keyPairId: s.keyPairId,
      privateKey: s.privateKey,
      dateLessThan: expiresAt.toISOString(),
    });
  }
  if (!warned && process.env.AWS_LAMBDA_FUNCTION_NAME && !process.env.AWS_ENDPOINT_URL_S3) {
    warned = true;
    logger.warn(
      'No CloudFront media signing key configured (MEDIA_SIGNING_SECRET / MEDIA_SIGNING_PARAMETER): public media URLs are S3 presigned URLs, which expire with the function role session (hours), not after a day. See docs/deployment.md.',
    );
  }
  return s3SignedUrl(
    s3(),
    new GetObjectCommand({ Bucket: bucketName(), Key: key, ResponseCacheControl: MEDIA_CACHE_CONTROL }),
    {
      expiresIn: ttlSeconds,
      signingDate: signedAt,
    },
  );
}
