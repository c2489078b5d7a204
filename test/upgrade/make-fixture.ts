/**
 * `npm run upgrade:fixture -- <commit> [--people 30]`
 *
 * Makes the upgrade test's fixture of an earlier release (docs/deployment.md, "Upgrading and rolling
 * back"): checks the release out into a worktree of its own, installs it, starts it on a fresh data
 * directory, seeds its demo company through its own API, signs two people in, and exports what it
 * stored: every item of the table (DynamoDB JSON, so numbers and sets keep their types), the bucket's
 * keys with their sizes, the two session tokens and the secrets it generated (a throwaway instance's:
 * its seals and tags open only with them). The export is the release's stored
 * form, not DynamoDB Local's binary files, so any later code can load it into any table.
 * Written to test/upgrade/fixtures/<version>-<commit>.json.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { freePort } from '../../infra/local/runtime.ts';
import type { UpgradeFixture } from './fixture.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { people: { type: 'string', default: '30' }, keep: { type: 'boolean', default: false } },
});
const commit = positionals[0];
if (!commit) {
  console.error('usage: npm run upgrade:fixture -- <commit> [--people 30]');
  process.exit(2);
}
const full = execFileSync('git', ['rev-parse', `${commit}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
const short = full.slice(0, 7);
const checkout = join(tmpdir(), `workplace-release-${short}`);
const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CI: 'true' } });

if (!existsSync(join(checkout, 'package.json'))) {
  console.log(`checking ${short} out into ${checkout}`);
  run('git', ['worktree', 'add', '--detach', checkout, full], ROOT);
}
if (!existsSync(join(checkout, 'node_modules'))) run('npm', ['ci', '--no-audit', '--no-fund'], checkout);
const version = (
  JSON.parse(execFileSync('git', ['show', `${full}:package.json`], { cwd: ROOT, encoding: 'utf8' })) as {
    version: string;
  }
).version;

const dataDir = mkdtempSync(join(tmpdir(), `workplace-fixture-${short}-`));
const port = await freePort();
const base = `http://127.0.0.1:${port}/api/v1`;
let server: ChildProcess | undefined;
try {
  // The release's own `npm start`, with its schedules and stream: the items it writes are its own.
  server = spawn('npm', ['start'], {
    cwd: checkout,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'WARN' },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const endpoints = await new Promise<{ dynamodb: string; s3: string }>((resolveEndpoints, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the release did not start:\n${out}`)), 180_000);
    server!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const dynamodb = /DynamoDB Local: (http:\/\/\S+)/.exec(out)?.[1];
      const s3 = /S3 emulator: (http:\/\/\S+)/.exec(out)?.[1];
      if (dynamodb && s3 && /ready in/.test(out)) {
        clearTimeout(timer);
        resolveEndpoints({ dynamodb, s3 });
      }
    });
    server!.once('exit', (code) => reject(new Error(`the release exited with ${code}:\n${out}`)));
  });
  console.log(`release ${short} (${version}) up on ${base}`);
  run('npm', ['run', 'seed', '--', '--people', values.people!, '--base-url', `http://127.0.0.1:${port}`], checkout);

  const signIn = async (email: string, password: string) => {
    const res = await fetch(`${base}/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (res.status !== 200) throw new Error(`cannot sign in as ${email}: ${res.status}`);
    // The bearer token comes in `set-auth-token` (better-auth's bearer plugin), as the mobile client reads it.
    const token = res.headers.get('set-auth-token') ?? ((await res.json()) as { token?: string }).token;
    if (!token) throw new Error(`signing in as ${email} answered no token`);
    return token;
  };
  const sessions = {
    admin: { email: 'admin@example.com', token: await signIn('admin@example.com', 'admin-password-1') },
    member: { email: 'demo-5@example.com', token: await signIn('demo-5@example.com', 'demo-password-1') },
  };
  // Let the release's background work (change feed, notice batches) settle before the export.
  await new Promise((r) => setTimeout(r, 5_000));

  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const ddb = new DynamoDBClient({ region: 'us-east-1', endpoint: endpoints.dynamodb, credentials });
  const items: UpgradeFixture['table'] = [];
  let start: Record<string, any> | undefined;
  do {
    const page = await ddb.send(new ScanCommand({ TableName: 'workplace', ExclusiveStartKey: start }));
    items.push(...((page.Items ?? []) as UpgradeFixture['table']));
    start = page.LastEvaluatedKey;
  } while (start);
  items.sort((a, b) => `${a.pk.S}|${a.sk.S}`.localeCompare(`${b.pk.S}|${b.sk.S}`));
  const s3 = new S3Client({ region: 'us-east-1', endpoint: endpoints.s3, forcePathStyle: true, credentials });
  const objects: UpgradeFixture['objects'] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: 'workplace-media', ContinuationToken: token }));
    for (const o of page.Contents ?? []) objects.push({ key: o.Key!, size: o.Size ?? 0 });
    token = page.NextContinuationToken;
  } while (token);
  objects.sort((a, b) => a.key.localeCompare(b.key));

  // The release's generated secrets (a throwaway instance's): its seals, tags and cursors open with them.
  const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as UpgradeFixture['secrets'];
  const fixture: UpgradeFixture = {
    release: { commit: full, version },
    seededAt: new Date().toISOString(),
    secrets,
    sessions,
    table: items,
    objects,
  };
  const file = join(ROOT, 'test/upgrade/fixtures', `${version}-${short}.json`);
  writeFileSync(file, `${JSON.stringify(fixture, null, 1)}\n`);
  console.log(`wrote ${file}: ${items.length} items, ${objects.length} objects`);
} finally {
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch (err) {
      console.error(`could not stop the release: ${(err as Error).message}`);
    }
  }
  await new Promise((r) => setTimeout(r, 2_000));
  rmSync(dataDir, { recursive: true, force: true });
  if (!values.keep) run('git', ['worktree', 'remove', '--force', checkout], ROOT);
}
