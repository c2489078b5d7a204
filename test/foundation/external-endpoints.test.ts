import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import { freePort, ROOT } from '../../infra/local/runtime.ts';
import { startS3Emulator } from '../../infra/local/s3.ts';

/**
 * The endpoint switches LocalStack users rely on: with AWS_ENDPOINT_URL_DYNAMODB and
 * AWS_ENDPOINT_URL_S3 set, `npm start` starts no emulator of its own and creates its table and bucket
 * at those endpoints. Here the "external" services are a separately started DynamoDB Local and s3rver.
 */
describe('npm start against external endpoints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'workplace-external-'));
  let ddb: Awaited<ReturnType<typeof startDynamoDbLocal>>;
  let s3: Awaited<ReturnType<typeof startS3Emulator>>;
  let child: ChildProcess;
  let output = '';
  let port: number;

  beforeAll(async () => {
    ddb = await startDynamoDbLocal(join(dir, 'ddb'), await freePort());
    s3 = await startS3Emulator(join(dir, 's3'), await freePort());
    port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: join(dir, 'data'),
        AWS_ENDPOINT_URL_DYNAMODB: ddb.endpoint,
        AWS_ENDPOINT_URL_S3: s3.endpoint,
        TABLE_NAME: 'external-table',
        BUCKET_NAME: 'external-bucket',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    for (let i = 0; i < 120; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`npm start did not answer: ${output}`);
  });

  afterAll(async () => {
    child?.kill('SIGTERM');
    await new Promise((r) => child?.once('exit', r));
    await s3?.stop();
    await ddb?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uses the given endpoints instead of starting its own emulators', async () => {
    expect(output).toContain(`DynamoDB: using ${ddb.endpoint}`);
    expect(output).toContain(`S3: using ${s3.endpoint}`);
    expect(output).not.toContain('DynamoDB Local:');
  });

  it('creates its table and bucket there and serves from them', async () => {
    const client = new DynamoDBClient({
      endpoint: ddb.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    const table = await client.send(new DescribeTableCommand({ TableName: 'external-table' }));
    expect(table.Table?.StreamSpecification?.StreamEnabled).toBe(true);
    const bucket = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await expect(bucket.send(new HeadBucketCommand({ Bucket: 'external-bucket' }))).resolves.toBeDefined();
    const signIn = await fetch(`http://127.0.0.1:${port}/api/v1/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'admin-password-1' }),
    });
    expect(signIn.status).toBe(200);
  });
});
