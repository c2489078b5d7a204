import { CloudFrontClient, CreateInvalidationCommand } from '@aws-sdk/client-cloudfront';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { bucketName, s3 } from '../../shared/storage/client.ts';
import { eraseObjects } from '../../shared/storage/erase-objects.ts';
import { uniq } from '../support/api.ts';

/**
 * Erased media leave CloudFront (shared/storage/media-invalidation.ts): deployed, the objects an
 * erasure removes under the edge-cached prefixes are invalidated on the media distribution (named by
 * the edge stack's media signing parameter) before they are deleted; locally there is no distribution
 * and nothing is called. CloudFront and SSM are mocked here: the local runtime has neither.
 */
const cloudFront = mockClient(CloudFrontClient);
const ssm = mockClient(SSMClient);
const saved = { ...process.env };

afterEach(() => {
  cloudFront.reset();
  ssm.reset();
  for (const k of ['MEDIA_SIGNING_PARAMETER', 'MEDIA_DISTRIBUTION_ID']) delete process.env[k];
  Object.assign(process.env, { ...saved });
});

async function putObjects(keys: string[]) {
  for (const Key of keys) await s3().send(new PutObjectCommand({ Bucket: bucketName(), Key, Body: 'bytes' }));
}
const keysUnder = async (prefix: string) =>
  ((await s3().send(new ListObjectsV2Command({ Bucket: bucketName(), Prefix: prefix }))).Contents ?? []).map(
    (o) => o.Key,
  );

describe('erasing objects', () => {
  it("invalidates erased media on the distribution the edge stack's parameter names, then deletes them", async () => {
    const parameter = `/test-${uniq()}/media-signing`;
    process.env.MEDIA_SIGNING_PARAMETER = parameter;
    ssm.on(GetParameterCommand, { Name: parameter }).resolves({
      Parameter: {
        Name: parameter,
        Value: JSON.stringify({ baseUrl: 'https://x.example', keyPairId: 'K1', distributionId: 'E2EDGE' }),
      },
    });
    cloudFront.on(CreateInvalidationCommand).resolves({});
    const upload = `posts/${uniq()}/`;
    const avatar = `avatars/${uniq()}_`;
    await putObjects([`${upload}original.png`, `${upload}w1200.webp`, `${avatar}01.webp`]);
    expect(await eraseObjects(upload)).toBe(2);
    expect(await eraseObjects(avatar)).toBe(1);
    const calls = cloudFront.commandCalls(CreateInvalidationCommand).map((c) => c.args[0].input);
    expect(calls.map((c) => c.DistributionId)).toEqual(['E2EDGE', 'E2EDGE']);
    expect(calls.map((c) => [...(c.InvalidationBatch?.Paths?.Items ?? [])].sort())).toEqual([
      [`/${upload}original.png`, `/${upload}w1200.webp`],
      [`/${avatar}01.webp`],
    ]);
    for (const c of calls) expect(c.InvalidationBatch?.Paths?.Quantity).toBe(c.InvalidationBatch?.Paths?.Items?.length);
    expect(await keysUnder(upload)).toEqual([]);
    expect(await keysUnder(avatar)).toEqual([]);
  });

  it('deletes nothing when the invalidation fails, so the retried step invalidates them again', async () => {
    process.env.MEDIA_DISTRIBUTION_ID = 'E2EDGE';
    cloudFront.on(CreateInvalidationCommand).rejects(new Error('TooManyInvalidationsInProgress'));
    const upload = `posts/${uniq()}/`;
    await putObjects([`${upload}original.png`]);
    await expect(eraseObjects(upload)).rejects.toThrow(/TooManyInvalidationsInProgress/);
    expect(await keysUnder(upload)).toEqual([`${upload}original.png`]);
    cloudFront.on(CreateInvalidationCommand).resolves({});
    expect(await eraseObjects(upload)).toBe(1);
    expect(await keysUnder(upload)).toEqual([]);
  });

  it('invalidates nothing without a distribution (the local runtime) or outside the edge-cached prefixes', async () => {
    const upload = `posts/${uniq()}/`;
    await putObjects([`${upload}original.png`]);
    expect(await eraseObjects(upload)).toBe(1);
    process.env.MEDIA_DISTRIBUTION_ID = 'E2EDGE';
    const exported = `exports/${uniq()}/`;
    await putObjects([`${exported}document.json`]);
    expect(await eraseObjects(exported)).toBe(1);
    expect(cloudFront.commandCalls(CreateInvalidationCommand)).toEqual([]);
    expect(ssm.commandCalls(GetParameterCommand)).toEqual([]);
  });
});
