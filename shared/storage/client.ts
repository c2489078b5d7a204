import { S3Client } from '@aws-sdk/client-s3';
import { awsClient } from '../aws/clients.ts';
import { awsClientBounds } from '../config/aws-client-bounds.ts';
import { env } from '../config/env.ts';

/**
 * One S3 client per Lambda instance. The endpoint comes from the SDK's own `AWS_ENDPOINT_URL_S3`
 * (the local emulator, LocalStack); emulators want path-style addresses (`S3_FORCE_PATH_STYLE=true`).
 */
let client: S3Client | undefined;

export function s3(): S3Client {
  client ??= awsClient(
    's3',
    new S3Client({
      region: env.region,
      forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true',
      // Checksums only where S3 requires them: by default the SDK signs the CRC32 of the (empty) body
      // into a presigned PUT URL (`x-amz-checksum-crc32=AAAAAA==`), and S3 then refuses every real
      // upload to it. The local runtime sets the same through the environment; deployed, this does.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Objects are up to a few MB (larger ones go straight to S3 through presigned URLs).
      ...awsClientBounds(5_000),
    }),
  );
  return client;
}

/** Lets tests install a client of their own (a failing endpoint); undefined goes back to the default. */
export function setS3Client(c: S3Client | undefined): void {
  client = c;
}

export const bucketName = () => env.bucketName;
