import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { httpEvent, testRoute, throughMiddleware } from '../../../test/support/lambda-event.ts';
import type { AnyRoute } from '../../api/route-def.ts';
import { Session } from '../../auth/entities.ts';
import { hashToken } from '../../auth/tokens.ts';
import { User } from '../../people/entities.ts';
import { session } from './session.ts';

const ddb = mockClient(DynamoDBDocumentClient);
const TOKEN = 'a-session-token';
const DAY = 24 * 3600_000;

function store({ role = 'member', expiresInMs = DAY, updatedAgoMs = 0 } = {}) {
  const sessionKey = Session.key({ tokenHash: hashToken(TOKEN) });
  ddb.on(GetCommand, { Key: sessionKey }).resolves({
    Item: {
      ...sessionKey,
      entity: 'Session',
      id: 's1',
      userId: 'u1',
      updatedAt: new Date(Date.now() - updatedAgoMs).toISOString(),
      expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
    },
  });
  ddb.on(GetCommand, { Key: User.key({ id: 'u1' }) }).resolves({
    Item: {
      ...User.key({ id: 'u1' }),
      entity: 'User',
      id: 'u1',
      role,
      status: 'active',
      name: 'U',
      email: 'u@example.com',
    },
  });
}

/** Runs the session middleware (and the error answers) before a function that records the context it sees. */
const call = (def: AnyRoute, headers: Record<string, string>, cookies?: string[]) =>
  throughMiddleware(def, session(def), httpEvent({ method: def.method, headers, cookies }));

describe('session middleware', () => {
  beforeEach(() => {
    ddb.reset();
    ddb.on(GetCommand).resolves({});
  });
  afterEach(() => vi.unstubAllEnvs());

  it('refuses a session route without a token (401) and never calls the function', async () => {
    const { res, ctx } = await call(testRoute(), {});
    expect(res.statusCode).toBe(401);
    expect(ctx).toBeUndefined();
  });

  it('refuses an unknown token (401)', async () => {
    expect((await call(testRoute(), { authorization: 'Bearer nobody' })).res.statusCode).toBe(401);
  });

  it('resolves the caller from a Bearer token', async () => {
    store();
    const { res, ctx } = await call(testRoute(), { authorization: `Bearer ${TOKEN}` });
    expect(res.statusCode).toBe(200);
    expect(ctx?.caller.userId).toBe('u1');
    expect(ctx?.via).toBe('bearer');
    expect(ctx?.token).toBe(TOKEN);
  });

  it('refuses an expired session with its reason', async () => {
    store({ expiresInMs: -1 });
    const { res, body } = await call(testRoute({ area: 'auth' }), { authorization: `Bearer ${TOKEN}` });
    expect(res.statusCode).toBe(401);
    expect(body.code).toBe('SESSION_EXPIRED');
  });

  it('reads the role fresh: a member on a super-admin route gets 403', async () => {
    store({ role: 'member' });
    expect((await call(testRoute({ auth: 'super_admin' }), { authorization: `Bearer ${TOKEN}` })).res.statusCode).toBe(
      403,
    );
    store({ role: 'super_admin' });
    expect((await call(testRoute({ auth: 'super_admin' }), { authorization: `Bearer ${TOKEN}` })).res.statusCode).toBe(
      200,
    );
  });

  it('refuses a cookie-authenticated write from an origin not allowed', async () => {
    vi.stubEnv('ALLOWED_ORIGINS', 'https://app.example.com');
    store();
    const write = testRoute({ method: 'POST' });
    const cookies = [`wcs_session=${TOKEN}`];
    const evil = await call(write, { origin: 'https://evil.example.com' }, cookies);
    expect(evil.res.statusCode).toBe(403);
    const allowed = await call(write, { origin: 'https://app.example.com' }, cookies);
    expect(allowed.res.statusCode).toBe(200);
    expect(allowed.ctx?.via).toBe('cookie');
    // A read needs no Origin; a Bearer write neither (no ambient credential).
    expect((await call(testRoute(), {}, cookies)).res.statusCode).toBe(200);
    expect((await call(write, { authorization: `Bearer ${TOKEN}` })).res.statusCode).toBe(200);
  });

  it('refreshes a day-old session, but not on an anonymous (grievance) route', async () => {
    store({ updatedAgoMs: 2 * DAY });
    ddb.on(UpdateCommand).resolves({});
    await call(testRoute({ anonymous: true }), { authorization: `Bearer ${TOKEN}` });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    await call(testRoute(), { authorization: `Bearer ${TOKEN}` });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
  });

  it('recognises a caller on a public route without requiring one', async () => {
    expect((await call(testRoute({ auth: 'public' }), {})).ctx?.callerIfSignedIn).toBeNull();
    store();
    const { ctx } = await call(testRoute({ auth: 'public' }), { authorization: `Bearer ${TOKEN}` });
    expect(ctx?.callerIfSignedIn?.userId).toBe('u1');
  });
});
