import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setStatus } from '../../shared/people/members.ts';
import { getUser } from '../../shared/people/users.ts';
import { type SeededCompany, seededCompany } from '../support/seeded-company.ts';

// The administrators the provisioning channel cannot touch, and the last super admin nobody can take
// away (issue 46), through a runtime of its own whose functions run with the break-glass address and
// password sign-in off in their environment (the suite's runtime has neither): so its only super admin
// at first is also the break-glass account.

const ADMIN = { email: 'glass-admin@example.com', password: 'admin-password-1' };
const PASSWORD = 'test-password-1';
let company: SeededCompany;

beforeAll(async () => {
  // Set for the company's runtime only: seededCompany puts this process's environment back at stop.
  const saved = { ...process.env };
  process.env.SSO_BREAK_GLASS_EMAIL = ADMIN.email.toUpperCase();
  process.env.PASSWORD_SIGN_IN = 'off';
  try {
    company = await seededCompany(0, undefined, ADMIN);
  } finally {
    // The runtime's functions took their environment at start; this worker's domain calls keep theirs.
    for (const k of ['SSO_BREAK_GLASS_EMAIL', 'PASSWORD_SIGN_IN'])
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
  }
}, 120_000);
afterAll(() => company?.stop());

const uniq = () => Math.random().toString(36).slice(2, 10);

async function scim(method: string, path: string, body?: unknown) {
  const res = await fetch(`${company.baseUrl}/api/v1/scim/v2${path}`, {
    method,
    headers: { 'content-type': 'application/scim+json', authorization: `Bearer ${process.env.SCIM_TOKEN}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
}
const patch = (...Operations: unknown[]) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations,
});

async function signIn(email: string, password: string) {
  const res = await fetch(`${company.baseUrl}/api/v1/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, code: ((await res.json()) as { code?: string }).code };
}

/** A member made by the admin (no sign-in: passwords are off), promoted when asked. */
async function member(role: 'member' | 'super_admin' = 'member') {
  const email = `m-${uniq()}@example.com`;
  const made = await company.call('POST', '/admin/members', company.adminToken, {
    name: 'M',
    email,
    password: PASSWORD,
  });
  expect(made.status).toBe(201);
  if (role === 'super_admin')
    expect(
      (await company.call('PATCH', `/admin/members/${made.body.id}/role`, company.adminToken, { role })).status,
    ).toBe(200);
  return { id: made.body.id as string, email };
}

const refusals = async (action: string) =>
  (await company.call('GET', `/admin/audit-log?action=${action}`, company.adminToken)).body.items as {
    actorKind: string;
    targetId: string;
    changed: boolean;
  }[];

describe('SCIM and the administrators', () => {
  it('never deactivates a super admin or the break-glass account by POST /Users, and records the refusal', async () => {
    const adminId = (await company.call('GET', '/users/me/profile', company.adminToken)).body.id as string;
    const res = await scim('POST', '/Users', { userName: ADMIN.email, displayName: 'Glass', active: false });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: '400', scimType: 'mutability' });
    expect(res.body.detail).toMatch(/super admin/);
    // Nothing happened: still active, not linked, and signs in (the break-glass password).
    expect((await getUser(adminId, true))?.status).toBe('active');
    expect((await scim('GET', `/Users/${adminId}`)).status).toBe(404);
    expect((await signIn(ADMIN.email, ADMIN.password)).status).toBe(200);
    expect(await refusals('scim.user.create.refused')).toContainEqual(
      expect.objectContaining({ actorKind: 'scim', targetId: adminId, changed: false }),
    );
  });

  it('never deactivates, deletes, unlinks or renames a linked super admin', async () => {
    const a = await member('super_admin');
    const linked = await scim('POST', '/Users', {
      userName: a.email,
      displayName: 'Admin A',
      externalId: `ext-${uniq()}`,
    });
    expect(linked.status).toBe(201);
    // Profile attributes still follow the provider.
    const renamedDisplay = await scim(
      'PATCH',
      `/Users/${a.id}`,
      patch({ op: 'replace', path: 'displayName', value: 'Ada' }),
    );
    expect(renamedDisplay.status).toBe(200);

    const deactivate = await scim('PATCH', `/Users/${a.id}`, patch({ op: 'replace', path: 'active', value: false }));
    expect(deactivate).toMatchObject({ status: 400, body: { scimType: 'mutability' } });
    const rename = await scim(
      'PATCH',
      `/Users/${a.id}`,
      patch({ op: 'replace', path: 'userName', value: `moved-${uniq()}@example.com` }),
    );
    expect(rename).toMatchObject({ status: 400, body: { scimType: 'mutability' } });
    const replace = await scim('PUT', `/Users/${a.id}`, { userName: a.email, displayName: 'Ada', active: false });
    expect(replace).toMatchObject({ status: 400, body: { scimType: 'mutability' } });
    const del = await scim('DELETE', `/Users/${a.id}`);
    expect(del.status).toBe(403);
    expect(del.body.detail).toMatch(/super admin/);

    const after = await getUser(a.id, true);
    // Pending (never signed in), as made: not deactivated.
    expect(after).toMatchObject({ status: 'pending', email: a.email, role: 'super_admin', name: 'Ada' });
    expect((await scim('GET', `/Users/${a.id}`)).status).toBe(200);
    for (const action of ['scim.user.patch.refused', 'scim.user.replace.refused', 'scim.user.delete.refused'])
      expect(await refusals(action)).toContainEqual(expect.objectContaining({ targetId: a.id, changed: false }));

    // A member is deactivated and deleted as before.
    const m = await member();
    expect((await scim('POST', '/Users', { userName: m.email, displayName: 'M' })).status).toBe(201);
    expect((await scim('PATCH', `/Users/${m.id}`, patch({ op: 'replace', path: 'active', value: false }))).status).toBe(
      200,
    );
    expect((await scim('DELETE', `/Users/${m.id}`)).status).toBe(204);
  });
});

describe('password sign-in off', () => {
  it('refuses a member alike with a wrong or the right password: no oracle', async () => {
    const m = await member();
    expect(await signIn(m.email, PASSWORD)).toEqual({ status: 403, code: 'PASSWORD_SIGN_IN_OFF' });
    expect(await signIn(m.email, 'not-the-password')).toEqual({ status: 403, code: 'PASSWORD_SIGN_IN_OFF' });
    expect(await signIn(`nobody-${uniq()}@example.com`, 'whatever-1')).toEqual({
      status: 403,
      code: 'PASSWORD_SIGN_IN_OFF',
    });
    // The break-glass super admin keeps their password, and a wrong one is still wrong.
    expect((await signIn(ADMIN.email, 'not-the-password')).status).toBe(401);
    expect((await signIn(ADMIN.email, ADMIN.password)).status).toBe(200);
  });
});

describe('the last active super admin', () => {
  it('is never deactivated, by any path', async () => {
    const admins = (await company.call('GET', '/admin/members', company.adminToken)).body as {
      id: string;
      email: string;
      role: string;
    }[];
    const others = admins.filter((p) => p.role === 'super_admin' && p.email !== ADMIN.email);
    // Demote the other super admins (earlier tests made them): the first one stays alone.
    for (const o of others)
      expect(
        (await company.call('PATCH', `/admin/members/${o.id}/role`, company.adminToken, { role: 'member' })).status,
      ).toBe(200);
    const adminId = admins.find((p) => p.email === ADMIN.email)!.id;
    // A path with no acting super admin (the provisioning channel's, a background job's).
    await expect(setStatus(null, adminId, 'deactivated')).rejects.toMatchObject({
      kind: 'invalid',
      details: { code: 'LAST_SUPER_ADMIN' },
    });
    expect((await getUser(adminId, true))?.status).toBe('active');
  });
});
