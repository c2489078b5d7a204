import { S3Client } from '@aws-sdk/client-s3';
import { env } from '../config/env.ts';

/**
 * One S3 client per Lambda instance. The endpoint comes from the SDK's own `AWS_ENDPOINT_URL_S3`
 * (the local emulator, LocalStack); emulators want path-style addresses (`S3_FORCE_PATH_STYLE=true`).
 */
let client: S3Client | undefined;

export function s3(): S3Client {
  client ??= new S3Client({
    region: env.region,
    forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true',
  });
  return client;
}

export const bucketName = () => env.bucketName;
