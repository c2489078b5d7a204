import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { allows, localResourceNames, requestsOf } from '../../infra/local/access-guard.ts';
import { FunctionHost } from '../../infra/local/function-host.ts';
import { ROOT } from '../../infra/local/runtime.ts';
import {
  accessStatements,
  leadingKeyPattern,
  routeFunctionAccess,
  writableKeys,
} from '../../shared/api/access-policy.ts';
import { type FunctionSettings, routeSettings } from '../../shared/api/function-settings.ts';
import { routes } from '../../shared/api/routes/index.ts';
import { Session } from '../../shared/auth/entities.ts';
import { CompanyEvent } from '../../shared/calendar/entities.ts';
import { db, tableName } from '../../shared/db/client.ts';
import { UploadQuota } from '../../shared/feed/entities.ts';
import { GrievanceHandlingEntry } from '../../shared/grievances/entities.ts';
import { DirectoryShard } from '../../shared/people/entities.ts';
import { WebsiteCounts } from '../../shared/website/entities.ts';
import { api, newMember } from '../support/api.ts';

/**
 * The local runtime enforces what AWS enforces: each function's AWS access (the statements its
 * deployed role holds), its timeout, and its own execution environments. The probe handler
 * (test/support/functions/probe.ts) runs in the same function host the local API uses.
 */
const host = new FunctionHost(ROOT, () => undefined);
afterAll(() => host.stop());

const probe = (overrides: Partial<FunctionSettings> = {}): FunctionSettings => ({
  name: 'probe',
  handler: 'test/support/functions/probe.ts',
  access: {},
  refreshesSession: true,
  timeoutSeconds: 10,
  memoryMb: 512,
  ...overrides,
});
const run = async (fn: FunctionSettings, event: Record<string, unknown>) => {
  const outcome = await host.invoke(fn, event);
  if (outcome.status !== 'ok') throw new Error(`probe ${outcome.status}`);
  return outcome.result as { ok: boolean; name?: string; status?: number; value?: string; threadId?: number };
};

describe('local access guard (the deployed IAM policy, enforced)', () => {
  // A read-only session route that reads avatars: what GET /files/avatars/{key} declares.
  const reader = probe({ name: 'reader', access: { bucket: [{ prefix: 'avatars/', actions: ['read'] }] } });

  it('refuses an undeclared DynamoDB action with the error DynamoDB answers', async () => {
    expect(await run(reader, { op: 'get-item', key: 'PROBE#1' })).toEqual({ ok: true });
    expect(await run(reader, { op: 'put-item', key: 'PROBE#1' })).toMatchObject({
      ok: false,
      name: 'AccessDeniedException',
      status: 400,
    });
    // The same call is allowed where the table is declared writable.
    expect(
      await run(probe({ name: 'writer', access: { table: 'write' } }), { op: 'put-item', key: 'PROBE#1' }),
    ).toEqual({ ok: true });
  });

  it('allows a read-only session route to update session items only (the daily refresh)', async () => {
    expect(await run(reader, { op: 'update-session', key: `${Session.key({ tokenHash: 'probe' }).pk}` })).toEqual({
      ok: true,
    });
    expect(await run(reader, { op: 'update-user', key: 'USER#probe' })).toMatchObject({
      ok: false,
      name: 'AccessDeniedException',
    });
    // Grievance routes (anonymous) write nothing keyed by the caller: not even the refresh.
    const anonymous = probe({ name: 'anonymous', refreshesSession: false });
    expect(await run(anonymous, { op: 'update-session', key: Session.key({ tokenHash: 'probe' }).pk })).toMatchObject({
      ok: false,
      name: 'AccessDeniedException',
    });
  });

  it('lets a narrowed writer write only the partitions it declares, batch writes item by item', async () => {
    const events = probe({ name: 'events-writer', access: { table: 'write', writes: [CompanyEvent] } });
    expect(await run(events, { op: 'put-item', key: CompanyEvent.key({ id: 'probe' }).pk })).toEqual({ ok: true });
    // A session route's own refresh is part of its grant; another area's partition is not.
    expect(await run(events, { op: 'update-session', key: Session.key({ tokenHash: 'probe' }).pk })).toEqual({
      ok: true,
    });
    expect(await run(events, { op: 'put-item', key: 'MEETING#probe' })).toMatchObject({
      ok: false,
      name: 'AccessDeniedException',
      status: 400,
    });
    // IAM evaluates every item of a BatchWriteItem: one outside the grant refuses the whole call.
    expect(
      await run(events, { op: 'put-many', keys: [CompanyEvent.key({ id: 'a' }).pk, CompanyEvent.key({ id: 'b' }).pk] }),
    ).toEqual({
      ok: true,
    });
    expect(await run(events, { op: 'put-many', keys: [CompanyEvent.key({ id: 'c' }).pk, 'USER#probe'] })).toMatchObject(
      {
        ok: false,
        name: 'AccessDeniedException',
      },
    );
  });

  it('derives each grant from the key templates (or key builders), so a changed key changes the grant', () => {
    expect(leadingKeyPattern(CompanyEvent)).toBe('EVENT#*');
    // The constant head ends at the last '#' before the first argument, whatever follows it.
    expect(leadingKeyPattern(UploadQuota)).toBe('UPLOADQUOTA#*');
    expect(leadingKeyPattern(DirectoryShard)).toBe('DIRSHARD#*');
    // A fixed partition is granted as it is, not as a prefix.
    expect(leadingKeyPattern(WebsiteCounts)).toBe('WEBSITE');
    // A field before any '#' leaves no prefix that covers only this kind of item.
    expect(() => leadingKeyPattern(GrievanceHandlingEntry)).toThrow(/no constant prefix/);
    expect(
      writableKeys({ access: { table: 'write', writes: [CompanyEvent] }, refreshesSession: true, idempotent: true }),
    ).toEqual(['EVENT#*', 'IDEMPOTENCY#*', 'SESSION#*']);
    // Declared for a read-only function, nothing is granted: the writes follow `table`.
    expect(writableKeys({ access: { table: 'read', writes: [CompanyEvent] } })).toBeUndefined();
  });

  it('refuses an undeclared bucket prefix with the error S3 answers', async () => {
    expect(await run(reader, { op: 'put-object', key: 'avatars/probe.webp' })).toMatchObject({
      ok: false,
      name: 'AccessDenied',
      status: 403,
    });
    expect(await run(reader, { op: 'get-object', key: 'posts/probe.webp' })).toMatchObject({
      ok: false,
      name: 'AccessDenied',
      status: 403,
    });
    // Declared: a missing object is a 404 because the reader may list the bucket, as deployed.
    expect(await run(reader, { op: 'get-object', key: 'avatars/missing.webp' })).toMatchObject({
      ok: false,
      name: 'NoSuchKey',
      status: 404,
    });
  });

  it('gives a function the application secrets its code reads, and no other', async () => {
    expect((await run(probe({ name: 'no-secrets' }), { op: 'secrets' })).value).toBe('');
    const sealer = probe({ name: 'sealer', handler: 'test/support/functions/cursor-probe.ts' });
    expect((await run(sealer, { op: 'secrets' })).value).toBe('cursor');
    expect((await run(sealer, { op: 'cursor' } as never)).value).toEqual(expect.any(String));
  });

  it('derives every route function’s permissions from its declaration', () => {
    const names = localResourceNames();
    for (const route of routes) {
      const statements = accessStatements(routeFunctionAccess(route));
      const put = requestsOf('dynamodb', 'PutCommand', { TableName: names.table, Item: { pk: 'X#1', sk: 'X' } });
      // Anywhere only for the writers that declare no partitions; the others' grants are checked by their areas' tests.
      const anywhere = route.access?.table === 'write' && !route.access.writes;
      expect(allows(statements, put[0], names), route.name).toBe(anywhere);
      for (const pattern of writableKeys(routeFunctionAccess(route)) ?? []) {
        const pk = pattern.replace(/\*$/, 'probe');
        const own = requestsOf('dynamodb', 'PutCommand', { TableName: names.table, Item: { pk, sk: 'X' } });
        expect(allows(statements, own[0], names), `${route.name} writes ${pk}`).toBe(true);
      }
      const index = requestsOf('dynamodb', 'QueryCommand', { TableName: names.table, IndexName: 'gsi1' });
      expect(allows(statements, index[0], names), route.name).toBe(true);
      const scan = requestsOf('dynamodb', 'ScanCommand', { TableName: names.table });
      expect(allows(statements, scan[0], names), `${route.name} never scans`).toBe(false);
    }
  });
});

describe('local execution environments', () => {
  it('gives each function its own module memory', async () => {
    await run(probe(), { op: 'remember', value: 'first' });
    expect((await run(probe(), { op: 'recall' })).value).toBe('first');
    const twin = probe({ name: 'probe-twin', handler: 'test/support/functions/probe-twin.ts' });
    expect((await run(twin, { op: 'recall' })).value).toBeNull();
  });

  it('gives each function its own logger: a line names the function that wrote it', async () => {
    // In one shared module graph the last function to set the logger's context named every line.
    const alpha = probe({ name: 'alpha' });
    const beta = probe({ name: 'beta', handler: 'test/support/functions/probe-twin.ts' });
    expect((await run(alpha, { op: 'log', addContext: true })).value).toBe('alpha');
    expect((await run(beta, { op: 'log', addContext: true })).value).toBe('beta');
    expect((await run(alpha, { op: 'log', addContext: false })).value).toBe('alpha');
  });

  it('serves concurrent invocations of one function in separate environments', async () => {
    const fn = probe({ name: 'concurrent', handler: 'test/support/functions/probe-twin.ts' });
    const [a, b] = await Promise.all([run(fn, { op: 'sleep', ms: 300 }), run(fn, { op: 'sleep', ms: 300 })]);
    expect(a.threadId).not.toBe(b.threadId);
  });

  it('cuts an invocation off at the function’s timeout and starts the next one cold', async () => {
    const fn = probe({ name: 'slow', timeoutSeconds: 1 });
    await run(fn, { op: 'remember', value: 'warm' });
    expect(await host.invoke(fn, { op: 'sleep', ms: 5000 })).toEqual({ status: 'timeout', timeoutSeconds: 1 });
    expect((await run(fn, { op: 'recall' })).value).toBeNull();
  });
});

describe('session refresh on a read-only route', () => {
  it('extends a session a day old through a route that only reads', async () => {
    const m = await newMember();
    const profile = routes.find((r) => r.method === 'GET' && r.path === '/api/v1/users/me/profile')!;
    expect(profile.access?.table, 'a read-only route').not.toBe('write');
    const { hashToken } = await import('../../shared/auth/tokens.ts');
    const key = Session.key({ tokenHash: hashToken(m.token) });
    const old = new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET updatedAt = :u, expiresAt = :e',
        ExpressionAttributeValues: { ':u': old, ':e': new Date(Date.now() + 3600 * 1000).toISOString() },
      }),
    );
    expect((await api('GET', '/users/me/profile', { token: m.token })).status).toBe(200);
    const after = (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item!;
    expect(Date.parse(after.expiresAt)).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    expect(routeSettings(profile).refreshesSession).toBe(true);
  });
});
