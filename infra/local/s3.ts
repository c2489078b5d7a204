import { mkdirSync } from 'node:fs';
import { CreateBucketCommand, HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { type EmulatorStore, makeConsistent } from './s3-consistent-store.ts';
import { type SigningCredentials, startSignatureGate } from './s3-signature-gate.ts';

/**
 * Starts the S3 emulator with its objects under `dir`, behind the signature gate on `port` (the
 * emulator checks no SigV4 signature: s3-signature-gate.ts does what S3 does before answering).
 */
export async function startS3Emulator(
  dir: string,
  port: number,
  // The local runtime's credentials (runtime.ts, prepareEnvironment), which every local client signs with.
  credentials: SigningCredentials = {
    accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'S3RVER',
    secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'S3RVER',
  },
): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory: dir, silent: true, resetOnClose: false });
  makeConsistent(server.store as EmulatorStore);
  const inner = await server.run();
  const gate = await startSignatureGate(port, { host: '127.0.0.1', port: inner.port }, credentials);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await gate.stop();
      await server.close();
    },
  };
}

export async function ensureBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  }
}
