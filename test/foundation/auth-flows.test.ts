import { describe, expect, it } from 'vitest';
import { authenticate } from '../../shared/access/caller.ts';
import { Session } from '../../shared/auth/entities.ts';
import { createSession, DEACTIVATED_MESSAGE } from '../../shared/auth/sessions.ts';
import { THROTTLE_LIMIT } from '../../shared/auth/throttle.ts';
import { hashToken } from '../../shared/auth/tokens.ts';
import { write } from '../../shared/db/table.ts';
import { DomainError } from '../../shared/errors.ts';
import { admin, api, newMember, PASSWORD, uniq } from '../support/api.ts';

const signInRaw = (email: string, password: string) =>
  api('POST', '/auth/sign-in/email', { body: { email, password } });

describe('sign-in throttling', () => {
  it('answers 429 after five failures for one address, and a success resets the count', async () => {
    const m = await newMember();
    for (let i = 0; i < THROTTLE_LIMIT; i++) expect((await signInRaw(m.email, 'wrong-password-x')).status).toBe(401);
    const throttled = await signInRaw(m.email, PASSWORD);
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    // Another address is not affected.
    const other = await newMember();
    expect((await signInRaw(other.email, PASSWORD)).status).toBe(200);
  });

  it('counts concurrent failures without losing any', async () => {
    const email = `nobody-${uniq()}@example.com`;
    const results = await Promise.all(Array.from({ length: 8 }, () => signInRaw(email, 'wrong-password-x')));
    expect(results.every((r) => r.status === 401 || r.status === 429)).toBe(true);
    expect((await signInRaw(email, 'wrong-password-x')).status).toBe(429);
  });

  it('resets after a successful sign-in', async () => {
    const m = await newMember();
    for (let i = 0; i < THROTTLE_LIMIT - 1; i++) await signInRaw(m.email, 'wrong-password-x');
    expect((await signInRaw(m.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < THROTTLE_LIMIT - 1; i++)
      expect((await signInRaw(m.email, 'wrong-password-x')).status).toBe(401);
    expect((await signInRaw(m.email, PASSWORD)).status).toBe(200);
  });
});

describe('sessions', () => {
  it('stores only the hash of the token', async () => {
    const m = await newMember();
    const item = await Session.get({ tokenHash: hashToken(m.token) }, { consistent: true });
    expect(item).toBeDefined();
    expect(JSON.stringify(item)).not.toContain(m.token);
    expect(Buffer.from(m.token, 'base64url').length).toBeGreaterThanOrEqual(32);
  });

  it('checks expiry on every read, whatever TTL has not yet removed', async () => {
    const m = await newMember();
    await write(
      Session.update(
        { tokenHash: hashToken(m.token) },
        {
          UpdateExpression: 'SET expiresAt = :e',
          ExpressionAttributeValues: { ':e': new Date(Date.now() - 1000).toISOString() },
        },
      ),
    );
    expect((await api('GET', '/users/me/profile', { token: m.token })).status).toBe(401);
  });

  it('extends a session used more than a day after its last refresh', async () => {
    const m = await newMember();
    const tokenHash = hashToken(m.token);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const soon = new Date(Date.now() + 3600_000).toISOString();
    await write(
      Session.update(
        { tokenHash },
        {
          UpdateExpression: 'SET updatedAt = :u, expiresAt = :e',
          ExpressionAttributeValues: { ':u': twoDaysAgo, ':e': soon },
        },
      ),
    );
    expect((await api('GET', '/users/me/profile', { token: m.token })).status).toBe(200);
    const after = await Session.get({ tokenHash }, { consistent: true });
    expect(Date.parse(after!.expiresAt)).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);
  });

  it('does not refresh on anonymous (grievance) requests', async () => {
    const m = await newMember();
    const tokenHash = hashToken(m.token);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString();
    await write(
      Session.update(
        { tokenHash },
        {
          UpdateExpression: 'SET updatedAt = :u',
          ExpressionAttributeValues: { ':u': twoDaysAgo },
        },
      ),
    );
    await authenticate(m.token, { refresh: false });
    expect((await Session.get({ tokenHash }, { consistent: true }))!.updatedAt).toBe(twoDaysAgo);
  });

  it('keeps a deactivated person out with the deactivated message, also after reactivation', async () => {
    const a = await admin();
    const m = await newMember();
    const { token: second } = await createSession(m.id, 'test');
    expect(
      (await api('PATCH', `/admin/members/${m.id}/status`, { token: a.token, body: { status: 'deactivated' } })).status,
    ).toBe(200);
    const res = await api('GET', '/users/me/profile', { token: second });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(DEACTIVATED_MESSAGE);
    expect(
      (await api('PATCH', `/admin/members/${m.id}/status`, { token: a.token, body: { status: 'active' } })).status,
    ).toBe(200);
    await expect(authenticate(m.token, { refresh: true })).rejects.toBeInstanceOf(DomainError);
    expect((await signInRaw(m.email, PASSWORD)).status).toBe(200);
  });

  it('refuses to let a super admin deactivate themselves or demote the last active super admin', async () => {
    const a = await admin();
    expect(
      (await api('PATCH', `/admin/members/${a.user.id}/status`, { token: a.token, body: { status: 'deactivated' } }))
        .status,
    ).toBe(400);
  });
});

describe('members', () => {
  it('creates nothing when the e-mail is taken, whatever its case', async () => {
    const a = await admin();
    const m = await newMember();
    const res = await api('POST', '/admin/members', {
      token: a.token,
      body: { name: 'Dup', email: m.email.toUpperCase(), password: PASSWORD },
    });
    expect(res.status).toBe(409);
  });

  it('answers 400 for a manager or team that does not exist and creates nothing', async () => {
    const a = await admin();
    const email = `ghost-${uniq()}@example.com`;
    for (const dangling of [{ managerId: 'nobody' }, { teamId: 'no-team' }]) {
      const res = await api('POST', '/admin/members', {
        token: a.token,
        body: { name: 'G', email, password: PASSWORD, ...dangling },
      });
      expect(res.status).toBe(400);
    }
    expect((await signInRaw(email, PASSWORD)).status).toBe(401);
  });

  it('keeps the manager report count exact under concurrent creation', async () => {
    const a = await admin();
    const boss = await newMember();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api('POST', '/admin/members', {
          token: a.token,
          body: { name: `R${i}`, email: `r-${uniq()}@example.com`, password: PASSWORD, managerId: boss.id },
        }),
      ),
    );
    const profile = await api('GET', `/people/${boss.id}`, { token: a.token });
    expect(profile.body.reportCount).toBe(20);
  });
});
