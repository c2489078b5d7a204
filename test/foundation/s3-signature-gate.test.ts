import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/runtime.ts';
import { startS3Emulator } from '../../infra/local/s3.ts';

/**
 * The local S3 checks presigned URLs as S3 does (infra/local/s3-signature-gate.ts): the emulator
 * behind it would serve tampered, unsigned and expired URLs and list the bucket to anyone.
 */
// The emulator's own account (it knows no other access key; the gate checks the signature).
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const BUCKET = 'gate-test';
const KEY = 'posts/p1/w400.webp';
let dir: string;
let emulator: Awaited<ReturnType<typeof startS3Emulator>>;
let client: S3Client;

const presign = (key = KEY, opts: { expiresIn?: number; signingDate?: Date; cacheControl?: string } = {}) =>
  getSignedUrl(client, new GetObjectCommand({ Bucket: BUCKET, Key: key, ResponseCacheControl: opts.cacheControl }), {
    expiresIn: opts.expiresIn ?? 3600,
    signingDate: opts.signingDate,
  });

async function refusal(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, code: /<Code>([^<]+)<\/Code>/.exec(text)?.[1], text };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 's3-gate-'));
  emulator = await startS3Emulator(join(dir, 's3'), await freePort(), credentials);
  client = new S3Client({ region: 'us-east-1', endpoint: emulator.endpoint, forcePathStyle: true, credentials });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: KEY, Body: 'webp-bytes', ContentType: 'image/webp' }));
  await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'posts/p1/original.png', Body: 'original' }));
});
afterAll(async () => {
  client?.destroy();
  await emulator?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the local S3 signature gate', () => {
  it('serves a presigned GET, with CORS for any origin and the signed Cache-Control', async () => {
    const res = await fetch(await presign(KEY, { cacheControl: 'public, max-age=86400, immutable' }), {
      headers: { origin: 'https://www.example.org' },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('webp-bytes');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
  });

  it('refuses an unsigned GET and an unsigned listing with AccessDenied', async () => {
    for (const url of [
      `${emulator.endpoint}/${BUCKET}/${KEY}`,
      `${emulator.endpoint}/${BUCKET}`,
      `${emulator.endpoint}/${BUCKET}?list-type=2`,
    ]) {
      expect(await refusal(url)).toMatchObject({ status: 403, code: 'AccessDenied' });
    }
  });

  it('refuses a URL whose key, query or signature was changed (SignatureDoesNotMatch)', async () => {
    const url = await presign();
    // Another object under the same signature: the original next to the rendition.
    expect(await refusal(url.replace('w400.webp', 'original.png'))).toMatchObject({
      status: 403,
      code: 'SignatureDoesNotMatch',
    });
    const longer = new URL(url);
    longer.searchParams.set('X-Amz-Expires', '604800');
    expect(await refusal(longer.toString())).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    const forged = new URL(url);
    const sig = forged.searchParams.get('X-Amz-Signature')!;
    forged.searchParams.set('X-Amz-Signature', `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`);
    expect(await refusal(forged.toString())).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    // Signed with another secret.
    const other = new S3Client({
      region: 'us-east-1',
      endpoint: emulator.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: 'not-the-secret' },
    });
    const wrong = await getSignedUrl(other, new GetObjectCommand({ Bucket: BUCKET, Key: KEY }), { expiresIn: 60 });
    other.destroy();
    expect(await refusal(wrong)).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
  });

  it('refuses an expired URL as S3 does', async () => {
    const url = await presign(KEY, { expiresIn: 60, signingDate: new Date(Date.now() - 120_000) });
    const res = await refusal(url);
    expect(res).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(res.text).toContain('Request has expired');
  });

  it("lets the service's own header-signed SDK calls through (listing included)", async () => {
    const out = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'posts/' }));
    expect(out.Contents?.map((o) => o.Key).sort()).toEqual(['posts/p1/original.png', KEY]);
  });

  it('refuses a copy whose source changed since its ETag was read (x-amz-copy-source-if-match), as S3 does', async () => {
    const source = 'pending-uploads/p2/original.png';
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: source, Body: 'checked bytes' }));
    const checked = (await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: source }))).ETag!;
    const copy = (key: string) =>
      client.send(
        new CopyObjectCommand({
          Bucket: BUCKET,
          Key: key,
          CopySource: `${BUCKET}/${source}`,
          CopySourceIfMatch: checked,
        }),
      );
    // Unchanged: copied.
    await copy('copies/p2/first.png');
    const first = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'copies/p2/first.png' }));
    expect(await first.Body!.transformToString()).toBe('checked bytes');
    // Overwritten in between: 412 PreconditionFailed, and nothing written.
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: source, Body: 'other bytes' }));
    const err = await copy('copies/p2/second.png').then(
      () => null,
      (e: { name?: string; $metadata?: { httpStatusCode?: number } }) => e,
    );
    expect(err?.$metadata?.httpStatusCode).toBe(412);
    expect(err?.name).toBe('PreconditionFailed');
    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'copies/p2/' }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual(['copies/p2/first.png']);
  });
});
