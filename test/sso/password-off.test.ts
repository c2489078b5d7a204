import { afterEach, describe, expect, it } from 'vitest';
import { signIn } from '../../shared/access/accounts.ts';
import { admin, api, newMember, PASSWORD } from '../support/api.ts';

// PASSWORD_SIGN_IN=off (docs/sso.md), on the domain's sign-in with this worker's settings (the local
// runtime keeps its own: passwords stay on there for every other test).

const saved = { ...process.env };
afterEach(() => {
  for (const k of ['PASSWORD_SIGN_IN', 'SSO_BREAK_GLASS_EMAIL', 'OIDC_ISSUER', 'ADMIN_EMAIL'])
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
});

const attempt = (email: string, password: string) =>
  signIn(email, password, 'password-off-test', Date.now()).then(
    (r) => ({ ok: true as const, userId: r.user.id }),
    (err: { kind?: string; details?: { code?: string } }) => ({
      ok: false as const,
      kind: err.kind,
      code: err.details?.code,
    }),
  );

describe('password sign-in switched off for members', () => {
  it('refuses members and other super admins, lets the break-glass super admin in', async () => {
    const a = await admin();
    const member = await newMember();
    const other = await newMember();
    expect(
      (await api('PATCH', `/admin/members/${other.id}/role`, { token: a.token, body: { role: 'super_admin' } })).status,
    ).toBe(200);
    process.env.PASSWORD_SIGN_IN = 'off';
    process.env.SSO_BREAK_GLASS_EMAIL = 'Admin@Example.com';

    expect(await attempt(member.email, PASSWORD)).toEqual({
      ok: false,
      kind: 'forbidden',
      code: 'PASSWORD_SIGN_IN_OFF',
    });
    expect(await attempt(other.email, PASSWORD)).toMatchObject({ ok: false, code: 'PASSWORD_SIGN_IN_OFF' });
    // Refused before the password is checked: a wrong one gets the same answer (no oracle), and the
    // break-glass super admin's wrong one is still wrong.
    expect(await attempt(member.email, 'not-the-password')).toEqual({
      ok: false,
      kind: 'forbidden',
      code: 'PASSWORD_SIGN_IN_OFF',
    });
    expect(await attempt('admin@example.com', 'not-the-password')).toMatchObject({
      ok: false,
      kind: 'unauthenticated',
    });
    expect(await attempt('admin@example.com', 'admin-password-1')).toEqual({ ok: true, userId: a.user.id });

    // The break-glass address works only for a super admin.
    process.env.SSO_BREAK_GLASS_EMAIL = member.email;
    expect(await attempt(member.email, PASSWORD)).toMatchObject({ ok: false, code: 'PASSWORD_SIGN_IN_OFF' });
    // Without one, ADMIN_EMAIL (the first super admin) is it.
    delete process.env.SSO_BREAK_GLASS_EMAIL;
    process.env.ADMIN_EMAIL = 'admin@example.com';
    expect(await attempt('admin@example.com', 'admin-password-1')).toMatchObject({ ok: true });
  });

  it('has no effect while single sign-on is not configured', async () => {
    const member = await newMember();
    process.env.PASSWORD_SIGN_IN = 'off';
    delete process.env.OIDC_ISSUER;
    expect(await attempt(member.email, PASSWORD)).toEqual({ ok: true, userId: member.id });
  });
});
