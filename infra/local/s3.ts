import { mkdirSync } from 'node:fs';
import { CreateBucketCommand, HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** Starts the S3 emulator with its objects under `dir`. */
export async function startS3Emulator(
  dir: string,
  port: number,
): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  const server = new S3rver({ port, address: '127.0.0.1', directory: dir, silent: true, resetOnClose: false });
  await server.run();
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}

export async function ensureBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  }
}
