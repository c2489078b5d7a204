import { createVerify, generateKeyPairSync } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { publicMediaUrl, resetMediaSigning, SIGNING_WINDOW_SECONDS } from '../../shared/storage/public-urls.ts';

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
    // Signed as of the window's start (so the URL is the same all window long): about a day.
    expect(expires).toBeGreaterThan(before + DAY - SIGNING_WINDOW_SECONDS - 1);
    expect(expires).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + DAY);
    expect(expires % SIGNING_WINDOW_SECONDS).toBe(0);
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

  describe('the same URL all window long, a new one in the next window', () => {
    afterEach(() => vi.useRealTimers());
    const at = (iso: string) => vi.setSystemTime(new Date(iso));

    it('S3 presigned: X-Amz-Date is the window start, the URL is byte-identical within it', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      at('2026-03-02T10:00:05Z');
      const first = await publicMediaUrl('posts/abc/w400.webp', DAY);
      at('2026-03-02T10:59:59Z');
      expect(await publicMediaUrl('posts/abc/w400.webp', DAY)).toBe(first);
      expect(new URL(first).searchParams.get('X-Amz-Date')).toBe('20260302T100000Z');
      at('2026-03-02T11:00:00Z');
      const next = await publicMediaUrl('posts/abc/w400.webp', DAY);
      expect(next).not.toBe(first);
      expect(new URL(next).searchParams.get('X-Amz-Date')).toBe('20260302T110000Z');
    });

    it('CloudFront: the expiry is the window start plus the lifetime, the URL identical within it', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      process.env.MEDIA_BASE_URL = 'https://media.example.com';
      process.env.MEDIA_KEY_PAIR_ID = 'K2JCJMDEHXQW5F';
      process.env.MEDIA_PRIVATE_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      vi.useFakeTimers({ toFake: ['Date'] });
      at('2026-03-02T10:00:05Z');
      const first = await publicMediaUrl('avatars/x.webp', DAY);
      at('2026-03-02T10:59:59Z');
      expect(await publicMediaUrl('avatars/x.webp', DAY)).toBe(first);
      expect(Number(new URL(first).searchParams.get('Expires'))).toBe(Date.parse('2026-03-03T10:00:00Z') / 1000);
      at('2026-03-02T11:00:01Z');
      expect(await publicMediaUrl('avatars/x.webp', DAY)).not.toBe(first);
    });
  });

  it('reads the signing settings through Powertools Parameters (SSM parameter, Secrets Manager key)', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ssm = mockClient(SSMClient);
    const sm = mockClient(SecretsManagerClient);
    try {
      ssm
        .on(GetParameterCommand, { Name: '/Workplace/media-signing' })
        .resolves({ Parameter: { Value: JSON.stringify({ baseUrl: 'https://cdn.example.com/', keyPairId: 'KID1' }) } });
      sm.on(GetSecretValueCommand, { SecretId: 'media-key' }).resolves({
        SecretString: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      });
      process.env.MEDIA_SIGNING_PARAMETER = '/Workplace/media-signing';
      process.env.MEDIA_SIGNING_SECRET = 'media-key';
      const url = new URL(await publicMediaUrl('posts/p/w1200.webp', DAY));
      expect(`${url.origin}${url.pathname}`).toBe('https://cdn.example.com/posts/p/w1200.webp');
      expect(url.searchParams.get('Key-Pair-Id')).toBe('KID1');
      expect(ssm.commandCalls(GetParameterCommand)).toHaveLength(1);
      expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    } finally {
      ssm.restore();
      sm.restore();
    }
  });
});
