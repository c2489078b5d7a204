import { createAuthClient } from 'better-auth/client';
import { describe, expect, it } from 'vitest';
import { api, baseUrl, newMember, PASSWORD, signIn } from '../support/api.ts';

// better-auth's own client, unchanged, against the local runtime (docs/client-developers.md, "better-auth's client"):
// the authentication routes are a superset of what it sends and reads.

const authBase = () => `${baseUrl()}/api/v1/auth`;

/** The mobile way: the bearer token from `set-auth-token`, replaced whenever an answer carries a new one. */
function bearerClient(initial?: string) {
  const store = { token: initial };
  const client = createAuthClient({
    baseURL: authBase(),
    fetchOptions: {
      auth: { type: 'Bearer', token: () => store.token },
      onSuccess: (ctx) => {
        const rotated = ctx.response.headers.get('set-auth-token');
        if (rotated) store.token = rotated;
      },
    },
  });
  return { client, store };
}

/**
 * The web way, done as a browser does it: Node's fetch keeps no cookies, so this one keeps the
 * `Set-Cookie`s it is given (dropping those cleared with Max-Age=0) and sends them back, and sends an
 * `Origin` on every request that is not a GET or HEAD.
 */
function cookieClient(origin = 'https://app.example.com') {
  const jar = new Map<string, string>();
  const browserFetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') headers.set('origin', origin);
    const res = await fetch(input, { ...init, headers });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1).trim());
    }
    return res;
  };
  const client = createAuthClient({ baseURL: authBase(), fetchOptions: { customFetchImpl: browserFetch } });
  return { client, jar };
}

describe("better-auth's client with a bearer token", () => {
  it('signs in, reads and manages sessions, changes the password and the name, and signs out', async () => {
    const m = await newMember(); // m.token: another device of the same person
    const { client, store } = bearerClient();

    const signedIn = await client.signIn.email({
      email: m.email,
      password: PASSWORD,
      callbackURL: 'https://app.example.com/home',
      rememberMe: true,
    });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data).toMatchObject({ redirect: false, user: { id: m.id, email: m.email, emailVerified: true } });
    expect(store.token).toBe(signedIn.data!.token);

    const got = await client.getSession({ query: { disableCookieCache: true } });
    expect(got.error).toBeNull();
    expect(got.data!.user.id).toBe(m.id);
    expect(got.data!.session).toMatchObject({ userId: m.id, current: true, ipAddress: null });

    // The handle identifies the other device's session; revoking it signs that device out.
    const listed = await client.listSessions();
    expect(listed.data).toHaveLength(2);
    const other = listed.data!.find((s) => s.id !== got.data!.session.id)!;
    expect(other.token).not.toBe(m.token);
    // It is never a credential.
    expect((await bearerClient(other.token).client.getSession()).error?.status).toBe(401);
    expect((await client.revokeSession({ token: other.token })).data).toEqual({ status: true });
    expect((await api('GET', '/users/me/profile', { token: m.token })).status).toBe(401);
    expect((await client.listSessions()).data).toHaveLength(1);

    // Two more devices, then every session but this one ends.
    const [b, c] = [await signIn(m.email, PASSWORD), await signIn(m.email, PASSWORD)];
    expect((await client.revokeOtherSessions()).data).toEqual({ status: true });
    for (const t of [b.token, c.token]) expect((await api('GET', '/users/me/profile', { token: t })).status).toBe(401);
    expect((await client.getSession()).data!.user.id).toBe(m.id);

    // Changing the password with revokeOtherSessions rotates this session: the client follows set-auth-token.
    const d = await signIn(m.email, PASSWORD);
    const before = store.token;
    const changed = await client.changePassword({
      currentPassword: PASSWORD,
      newPassword: 'changed-password-2',
      revokeOtherSessions: true,
    });
    expect(changed.error).toBeNull();
    expect(changed.data!.token).toEqual(expect.any(String));
    expect(store.token).toBe(changed.data!.token);
    expect(store.token).not.toBe(before);
    for (const t of [before!, d.token]) expect((await api('GET', '/users/me/profile', { token: t })).status).toBe(401);
    const wrong = await client.changePassword({ currentPassword: 'not-the-password', newPassword: 'whatever-pass-3' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'INVALID_PASSWORD' });

    expect((await client.updateUser({ name: 'Renamed By Client' })).data).toEqual({ status: true });
    expect((await client.getSession()).data!.user.name).toBe('Renamed By Client');

    expect((await client.signOut()).data).toEqual({ success: true });
    // Where better-auth answers 200 null, the service answers 401 (docs/client-developers.md, "better-auth's client").
    expect((await client.getSession()).error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('ends every session, its own included, with revokeSessions; errors carry better-auth codes', async () => {
    const m = await newMember();
    const { client, store } = bearerClient();
    const wrong = await client.signIn.email({ email: m.email, password: 'not-the-password' });
    expect(wrong.error).toMatchObject({ status: 401, code: 'INVALID_EMAIL_OR_PASSWORD' });
    await client.signIn.email({ email: m.email, password: PASSWORD });
    expect((await client.revokeSessions()).data).toEqual({ status: true });
    expect((await api('GET', '/users/me/profile', { token: store.token })).status).toBe(401);
    expect((await api('GET', '/users/me/profile', { token: m.token })).status).toBe(401);
  });

  it("refuses another person's handle with 404 and keeps their session", async () => {
    const owner = await newMember();
    const outsider = await newMember();
    const handle = (await bearerClient(owner.token).client.getSession()).data!.session.token;
    const refused = await bearerClient(outsider.token).client.revokeSession({ token: handle });
    expect(refused.error).toMatchObject({ status: 404, code: 'SESSION_NOT_FOUND' });
    expect((await api('GET', '/users/me/profile', { token: owner.token })).status).toBe(200);
  });
});

describe("better-auth's client with the web cookie", () => {
  it('runs the same flows on the cookie alone', async () => {
    const m = await newMember();
    const { client, jar } = cookieClient();

    const signedIn = await client.signIn.email({ email: m.email, password: PASSWORD, callbackURL: '/home' });
    expect(signedIn.error).toBeNull();
    expect(jar.get('wcs_session')).toBe(signedIn.data!.token);

    const got = await client.getSession({ query: { disableCookieCache: true, disableRefresh: true } });
    expect(got.data!.user.id).toBe(m.id);

    const other = (await client.listSessions()).data!.find((s) => s.id !== got.data!.session.id)!;
    expect((await client.revokeSession({ token: other.token })).data).toEqual({ status: true });
    expect((await api('GET', '/users/me/profile', { token: m.token })).status).toBe(401);

    const b = await signIn(m.email, PASSWORD);
    expect((await client.revokeOtherSessions()).data).toEqual({ status: true });
    expect((await api('GET', '/users/me/profile', { token: b.token })).status).toBe(401);

    const before = jar.get('wcs_session');
    const changed = await client.changePassword({
      currentPassword: PASSWORD,
      newPassword: 'changed-password-2',
      revokeOtherSessions: true,
    });
    expect(changed.error).toBeNull();
    // The rotated session comes back as the cookie too.
    expect(jar.get('wcs_session')).toBe(changed.data!.token);
    expect(jar.get('wcs_session')).not.toBe(before);

    expect((await client.updateUser({ name: 'Renamed On The Web' })).data).toEqual({ status: true });
    expect((await client.getSession()).data!.user.name).toBe('Renamed On The Web');

    expect((await client.signOut()).data).toEqual({ success: true });
    expect(jar.has('wcs_session')).toBe(false);
    expect((await client.getSession()).error?.status).toBe(401);
  });

  it('refuses a cookie-authenticated write without an allowed Origin', async () => {
    const m = await newMember();
    const { client, jar } = cookieClient();
    await client.signIn.email({ email: m.email, password: PASSWORD });
    const cookie = `wcs_session=${jar.get('wcs_session')}`;
    const res = await api('POST', '/auth/update-user', { body: { name: 'No Origin' }, headers: { cookie } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('INVALID_ORIGIN');
    expect((await client.getSession()).data!.user.name).toBe(m.name);
  });
});
