import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/runtime.ts';
import { startS3Emulator } from '../../infra/local/s3.ts';

/**
 * The local S3 replaces an object whole, as S3 does (infra/local/s3-consistent-store.ts): a GET that
 * meets a PUT of the same key answers the old object or the new one, complete, and promptly. Without
 * it the emulator announced the old length and sent the new, shorter bytes, and the reader waited
 * for the rest until its timeout (the whole-list routes' 503s).
 */
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const BUCKET = 'consistency-test';
const KEY = 'documents/roster.json.gz';
let dir: string;
let emulator: Awaited<ReturnType<typeof startS3Emulator>>;
let client: S3Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 's3-consistent-'));
  emulator = await startS3Emulator(join(dir, 's3'), await freePort(), credentials);
  // A short request timeout: a read left waiting for bytes that never come fails the test quickly.
  client = new S3Client({
    region: 'us-east-1',
    endpoint: emulator.endpoint,
    forcePathStyle: true,
    credentials,
    maxAttempts: 1,
    requestHandler: { requestTimeout: 3_000, throwOnRequestTimeout: true },
  });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
});
afterAll(async () => {
  client?.destroy();
  await emulator?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const read = async () => {
  const out = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: KEY }));
  return { etag: out.ETag, body: Buffer.from(await out.Body!.transformToByteArray()).toString() };
};

describe('the local S3 replaces an object whole', () => {
  it('answers every read during rewrites of one key with a whole version, never a mix or a wait', async () => {
    // Versions of alternating sizes: a long one followed by a short one is the case that hung.
    const versions = Array.from({ length: 12 }, (_, i) => `${i}:`.padEnd(i % 2 ? 2_000 : 400_000, String(i % 10)));
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: KEY, Body: versions[0] }));
    const reads: Promise<{ etag?: string; body: string }>[] = [];
    for (const version of versions.slice(1)) {
      const put = client.send(new PutObjectCommand({ Bucket: BUCKET, Key: KEY, Body: version }));
      reads.push(read(), read());
      await put;
    }
    const seen = await Promise.all(reads);
    for (const { body } of seen) expect(versions).toContain(body);
    expect((await read()).body).toBe(versions.at(-1));
  }, 60_000);

  it('keeps an ETag with the bytes it names', async () => {
    const short = 'short';
    const long = 'long'.repeat(50_000);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: KEY, Body: long }));
    const [a, b] = await Promise.all([
      client.send(new PutObjectCommand({ Bucket: BUCKET, Key: KEY, Body: short })).then(() => read()),
      read(),
    ]);
    const etagOf = new Map([
      [short, (await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'x', Body: short }))).ETag],
      [long, (await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'y', Body: long }))).ETag],
    ]);
    for (const r of [a, b]) expect(r.etag).toBe(etagOf.get(r.body));
  });
});
