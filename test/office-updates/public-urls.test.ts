import { createVerify, generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { publicMediaUrl, resetMediaSigning } from '../../shared/storage/public-urls.ts';

const DAY = 24 * 3600;
const VARS = [
  'MEDIA_BASE_URL',
  'MEDIA_KEY_PAIR_ID',
  'MEDIA_PRIVATE_KEY',
  'MEDIA_SIGNING_PARAMETER',
  'MEDIA_SIGNING_SECRET',
];

/** CloudFront's URL-safe base64: + → -, = → _, / → ~. */
const fromCloudFrontBase64 = (s: string) =>
  Buffer.from(s.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/'), 'base64');

describe('publicMediaUrl', () => {
  const saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    for (const k of VARS) {
      saved[k] = process.env[k];
      delete process.env[k];
    }
    resetMediaSigning();
  });
  afterEach(() => {
    for (const k of VARS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    resetMediaSigning();
  });

  it('signs a CloudFront URL (canned policy, about a day) when a key pair is configured', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    process.env.MEDIA_BASE_URL = 'https://d111111abcdef8.cloudfront.net/media/';
    process.env.MEDIA_KEY_PAIR_ID = 'K2JCJMDEHXQW5F';
    process.env.MEDIA_PRIVATE_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

    const before = Math.floor(Date.now() / 1000);
    const url = new URL(await publicMediaUrl('posts/abc/w1200.webp', DAY));
    expect(`${url.origin}${url.pathname}`).toBe('https://d111111abcdef8.cloudfront.net/media/posts/abc/w1200.webp');
    expect(url.searchParams.get('Key-Pair-Id')).toBe('K2JCJMDEHXQW5F');
    const expires = Number(url.searchParams.get('Expires'));
    expect(expires).toBeGreaterThanOrEqual(before + DAY - 1);
    expect(expires).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + DAY);
    const signature = url.searchParams.get('Signature');
    expect(signature).toBeTruthy();
    expect(url.searchParams.has('X-Amz-Signature')).toBe(false);

    // The canned policy CloudFront verifies: the resource without the signing parameters.
    const resource = 'https://d111111abcdef8.cloudfront.net/media/posts/abc/w1200.webp';
    const policy = JSON.stringify({
      Statement: [{ Resource: resource, Condition: { DateLessThan: { 'AWS:EpochTime': expires } } }],
    });
    const verify = createVerify('RSA-SHA1');
    verify.update(policy);
    expect(verify.verify(publicKey, fromCloudFrontBase64(signature!))).toBe(true);
  });

  it('falls back to an S3 presigned GET when no key pair is configured', async () => {
    const url = new URL(await publicMediaUrl('avatars/u_1.webp', DAY));
    expect(url.pathname).toMatch(/avatars\/u_1\.webp$/);
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(DAY));
    expect(url.searchParams.has('Key-Pair-Id')).toBe(false);
  });

  it('needs all three settings: a base URL without a key falls back to S3', async () => {
    process.env.MEDIA_BASE_URL = 'https://media.example.com/media';
    process.env.MEDIA_KEY_PAIR_ID = 'K2JCJMDEHXQW5F';
    const url = new URL(await publicMediaUrl('posts/abc/original.mp4', DAY));
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(DAY));
  });
});
