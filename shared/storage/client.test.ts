import { PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterEach, describe, expect, it } from 'vitest';
import { s3, setS3Client } from './client.ts';

describe('the S3 client', () => {
  const saved = process.env.AWS_REQUEST_CHECKSUM_CALCULATION;
  afterEach(() => {
    if (saved === undefined) delete process.env.AWS_REQUEST_CHECKSUM_CALCULATION;
    else process.env.AWS_REQUEST_CHECKSUM_CALCULATION = saved;
    setS3Client(undefined);
  });

  it('presigns a PUT without a checksum of the empty body, as deployed (no checksum variable set)', async () => {
    delete process.env.AWS_REQUEST_CHECKSUM_CALCULATION;
    setS3Client(undefined);
    const url = await getSignedUrl(
      s3(),
      new PutObjectCommand({ Bucket: 'b', Key: 'pending-uploads/x', ContentType: 'image/png', ContentLength: 10 }),
      { expiresIn: 60 },
    );
    expect(url.toLowerCase()).not.toContain('x-amz-checksum');
    expect(url.toLowerCase()).not.toContain('x-amz-sdk-checksum-algorithm');
  });
});
