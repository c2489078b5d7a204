import { randomUUID } from 'node:crypto';
import { type BetterAuthClientPlugin, createAuthClient } from 'better-auth/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OidcIdp, startOidcIdp } from '../../infra/local/oidc-idp.ts';
import { EmailClaim, SsoLink, SsoMemberLink } from '../../shared/auth/entities.ts';
import { completeSsoSignIn } from '../../shared/sso/callback.ts';
import { startSsoSignIn } from '../../shared/sso/start.ts';
import { admin, api, baseUrl, newMember, uniq } from '../support/api.ts';

// Single sign-on (docs/sso.md) through the local runtime, against a real OpenID Connect provider
// (panva's oidc-provider, infra/local/oidc-idp.ts) started here on the issuer the global setup set, with
// better-auth's client and its SSO plugin unchanged.

// better-auth's SSO client plugin, imported by a name the compiler does not follow: its declarations
// reach samlify's, which pull the DOM library into the whole project's types.
const SSO_CLIENT = '@better-auth/sso/client';
const { ssoClient } = (await import(SSO_CLIENT)) as { ssoClient: () => BetterAuthClientPlugin };

let idp: OidcIdp;
const callbackPath = '/api/v1/auth/sso/callback/oidc';

beforeAll(async () => {
  const issuer = new URL(process.env.OIDC_ISSUER!);
  idp = await startOidcIdp({
    port: Number(issuer.port),
    clientId: process.env.OIDC_CLIENT_ID!,
    clientSecret: process.env.OIDC_CLIENT_SECRET!,
    redirectUris: [`${baseUrl()}${callbackPath}`],
  });
});
afterAll(() => idp?.stop());

const client = () => createAuthClient({ baseURL: `${baseUrl()}/api/v1/auth`, plugins: [ssoClient()] });

/**
 * What a browser does at the provider: follows its redirects with its cookies until the provider sends
 * it back to the service's redirect URI, which is returned (not followed).
 */
async function throughProvider(authorizationUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hops = 0; hops < 10; hops++) {
    if (url.startsWith(`${baseUrl()}${callbackPath}`)) return url;
    expect(new URL(url).origin).toBe(idp.issuer);
    const res = await fetch(url, {
      redirect: 'manual',
      headers: jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {},
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider answered ${res.status}: ${await res.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects at the provider');
}

/** The browser binding cookie each started sign-in set, by its state: what that browser sends back. */
const bindings = new Map<string, string>();
const BINDING = 'wcs_sso';

/**
 * Starts a sign-in with better-auth's SSO client, as `subject` at the provider (with `headers`, e.g. a
 * signed-in member's token); the provider's callback URL. The browser's binding cookie is kept.
 */
async function startAs(subject: string | undefined, body: Record<string, unknown> = {}, headers = {}) {
  idp.next.subject = subject;
  let setCookies: string[] = [];
  const started = await client().signIn.sso(
    { providerId: 'oidc', callbackURL: '/welcome', ...body } as never,
    {
      headers,
      onResponse: (ctx: { response: Response }) => {
        setCookies = ctx.response.headers.getSetCookie();
      },
    } as never,
  );
  expect(started.error).toBeNull();
  expect(started.data).toMatchObject({ redirect: true, url: expect.stringContaining(idp.issuer) });
  const auth = new URL((started.data as { url: string }).url);
  expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
  for (const p of ['state', 'nonce', 'code_challenge']) expect(auth.searchParams.get(p)).toBeTruthy();
  const cookie = setCookies.find((c) => c.startsWith(`${BINDING}=`));
  expect(cookie).toMatch(/; Path=\/api\/v1\/auth\/sso\/callback; HttpOnly; SameSite=Lax; Max-Age=600/);
  bindings.set(auth.searchParams.get('state')!, cookie!.split(';')[0]!.slice(BINDING.length + 1));
  return throughProvider(auth.href);
}

/** The provider's redirect, followed by the browser that started the sign-in (its binding cookie), or by `browser`'s. */
const callback = (url: string, browser: { cookie?: string } = {}) => {
  const binding = bindings.get(new URL(url).searchParams.get('state') ?? '');
  const cookie = 'cookie' in browser ? browser.cookie : binding && `${BINDING}=${binding}`;
  return fetch(url, { redirect: 'manual', headers: { 'user-agent': 'sso-test', ...(cookie ? { cookie } : {}) } });
};
const sessionCookieSet = (res: Response) => res.headers.getSetCookie().some((c) => c.startsWith('wcs_session='));

function person(email = `sso-${uniq()}@example.com`) {
  const subject = randomUUID();
  idp.people.set(subject, { email, name: `SSO ${email}` });
  return { subject, email };
}

describe('single sign-on with OpenID Connect', () => {
  // First: the callback function fetches the provider's key set at its first ID token, which this
  // outage meets (a key set fetched earlier is kept by the function, as deployed).
  it("answers provider_unavailable, not invalid_id_token, when the provider's key set is down", async () => {
    const m = await newMember();
    const { subject } = person(m.email);
    const url = await startAs(subject);
    idp.outage.jwks = true;
    try {
      const res = await callback(url);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`${baseUrl()}/welcome?error=provider_unavailable`);
      expect(res.headers.get('set-auth-token')).toBeNull();
    } finally {
      idp.outage.jwks = false;
    }
    expect(await SsoMemberLink.get({ userId: m.id, providerId: 'oidc' }, { consistent: true })).toBeUndefined();
  });

  it('completes only in the browser that started the sign-in (login CSRF)', async () => {
    const m = await newMember();
    const { subject } = person(m.email);
    const url = await startAs(subject);
    // The callback URL sent to a colleague: their browser has no binding, or another sign-in's.
    const other = new URL(await startAs(subject)).searchParams.get('state')!;
    for (const cookie of [undefined, `${BINDING}=${bindings.get(other)}`, `${BINDING}=made-up`]) {
      const res = await callback(url, { cookie });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('SSO_BROWSER_MISMATCH');
      expect(res.headers.get('set-auth-token')).toBeNull();
      expect(sessionCookieSet(res)).toBe(false);
    }
    expect(await SsoMemberLink.get({ userId: m.id, providerId: 'oidc' }, { consistent: true })).toBeUndefined();
    // Nothing was spent: the browser that started it completes it, and its binding is cleared.
    const res = await callback(url);
    expect(res.status).toBe(302);
    expect(res.headers.get('set-auth-token')).toBeTruthy();
    expect(res.headers.getSetCookie()).toContainEqual(
      expect.stringMatching(/^wcs_sso=; Path=\/api\/v1\/auth\/sso\/callback;.*Max-Age=0/),
    );
  });

  it('never links an identity to a super admin by address: only in a sign-in the admin started while signed in', async () => {
    const a = await admin();
    const boss = await newMember();
    expect(
      (await api('PATCH', `/admin/members/${boss.id}/role`, { token: a.token, body: { role: 'super_admin' } })).status,
    ).toBe(200);
    // An identity at the provider with the admin's address (say, moved there): refused, nothing linked.
    const { subject } = person(boss.email);
    const refused = await callback(await startAs(subject));
    expect(refused.headers.get('location')).toBe(`${baseUrl()}/welcome?error=admin_link_required`);
    expect(refused.headers.get('set-auth-token')).toBeNull();
    expect(await SsoLink.get({ providerId: 'oidc', subject }, { consistent: true })).toBeUndefined();
    // Started by somebody else signed in: still refused.
    const member = await newMember();
    const byOther = await callback(await startAs(subject, {}, { authorization: `Bearer ${member.token}` }));
    expect(byOther.headers.get('location')).toBe(`${baseUrl()}/welcome?error=admin_link_required`);
    // Started by the admin, signed in: linked, and later sign-ins follow the link.
    const own = await callback(await startAs(subject, {}, { authorization: `Bearer ${boss.token}` }));
    expect(own.headers.get('location')).toBe(`${baseUrl()}/welcome`);
    expect(await SsoLink.get({ providerId: 'oidc', subject }, { consistent: true })).toMatchObject({ userId: boss.id });
    const later = await callback(await startAs(subject));
    const token = later.headers.get('set-auth-token')!;
    expect((await api('GET', '/users/me/profile', { token })).body.id).toBe(boss.id);
  });

  it('signs a provisioned member in: cookie and set-auth-token, then by the stored link', async () => {
    const m = await newMember();
    const { subject } = person(m.email);
    const res = await callback(await startAs(subject));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${baseUrl()}/welcome`);
    const token = res.headers.get('set-auth-token')!;
    expect(token).toBeTruthy();
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`wcs_session=${token};`))).toBe(true);
    const me = await api('GET', '/users/me/profile', { token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(m.id);
    // The cookie works as the web client sends it.
    const byCookie = await fetch(`${baseUrl()}/api/v1/auth/get-session`, {
      headers: { cookie: `wcs_session=${token}` },
    });
    expect(((await byCookie.json()) as { user: { id: string } }).user.id).toBe(m.id);
    expect(await SsoLink.get({ providerId: 'oidc', subject }, { consistent: true })).toMatchObject({ userId: m.id });

    // Parameters a provider adds to its redirect (Google's) are ignored, as OAuth asks of a client.
    const extra = new URL(await startAs(subject));
    for (const [k, v] of Object.entries({
      scope: 'openid email profile',
      authuser: '0',
      hd: 'example.com',
      prompt: 'none',
    }))
      extra.searchParams.set(k, v);
    const withExtra = await callback(extra.href);
    expect(withExtra.status).toBe(302);
    expect(withExtra.headers.get('location')).toBe(`${baseUrl()}/welcome`);
    expect(withExtra.headers.get('set-auth-token')).toBeTruthy();

    // The provider changes the address: the link still signs the same member in.
    idp.people.set(subject, { email: `renamed-${uniq()}@example.com`, name: 'Renamed' });
    const again = await callback(await startAs(subject));
    expect(again.status).toBe(302);
    const token2 = again.headers.get('set-auth-token')!;
    expect((await api('GET', '/users/me/profile', { token: token2 })).body.id).toBe(m.id);
    // The member's password sign-in and other sessions are untouched.
    expect((await api('GET', '/users/me/profile', { token: m.token })).status).toBe(200);
  });

  it('refuses a person who is not a member, and creates nothing', async () => {
    const { subject, email } = person();
    const res = await callback(await startAs(subject, { errorCallbackURL: '/sign-in-failed' }));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${baseUrl()}/sign-in-failed?error=not_a_member`);
    expect(res.headers.get('set-auth-token')).toBeNull();
    expect(sessionCookieSet(res)).toBe(false);
    expect(await EmailClaim.get({ email }, { consistent: true })).toBeUndefined();
    expect(await SsoLink.get({ providerId: 'oidc', subject }, { consistent: true })).toBeUndefined();
  });

  it('with SSO_CREATE_MEMBERS=on, makes a vouched-for person of a served domain a member at first sign-in', async () => {
    // The setting in this worker, on the domain's flow (the local runtime keeps its own settings: off).
    const origin = baseUrl();
    const signInAs = async (subject: string) => {
      idp.next.subject = subject;
      const { url, binding } = await startSsoSignIn({ providerId: 'oidc', callbackURL: '/welcome' }, origin);
      return completeSsoSignIn('oidc', new URL(await throughProvider(url)).searchParams, 'sso-test', binding);
    };
    process.env.SSO_CREATE_MEMBERS = 'on';
    try {
      const { subject, email } = person();
      const outcome = await signInAs(subject);
      expect(outcome.redirectTo).toBe(`${origin}/welcome`);
      expect(outcome.token).toBeTruthy();
      const me = await api('GET', '/users/me/profile', { token: outcome.token });
      expect(me.status).toBe(200);
      expect(me.body.name).toBe(`SSO ${email}`);
      const { token } = await admin();
      const listed = (await api('GET', '/admin/members', { token })).body.find((m: any) => m.email === email);
      expect(listed).toMatchObject({ id: me.body.id, role: 'member', status: 'active' });
      expect(await SsoLink.get({ providerId: 'oidc', subject }, { consistent: true })).toMatchObject({
        userId: me.body.id,
      });
      // Another domain, or an address the provider does not vouch for: still nobody.
      for (const [who, claims] of [
        [randomUUID(), { email: `sso-${uniq()}@elsewhere.example`, name: 'Elsewhere' }],
        [randomUUID(), { email: `sso-${uniq()}@example.com`, name: 'Unverified', emailVerified: false }],
      ] as const) {
        idp.people.set(who, claims);
        expect((await signInAs(who)).redirectTo).toMatch(/error=(not_a_member|email_not_verified)/);
        expect(await EmailClaim.get({ email: claims.email }, { consistent: true })).toBeUndefined();
      }
    } finally {
      delete process.env.SSO_CREATE_MEMBERS;
    }
  });

  it('refuses an address the provider does not vouch for, and a second identity for a linked member', async () => {
    const m = await newMember();
    const unverified = randomUUID();
    idp.people.set(unverified, { email: m.email, name: 'Unverified', emailVerified: false });
    const res = await callback(await startAs(unverified));
    expect(res.headers.get('location')).toContain('error=email_not_verified');
    expect(res.headers.get('set-auth-token')).toBeNull();

    const first = person(m.email);
    expect((await callback(await startAs(first.subject))).headers.get('set-auth-token')).toBeTruthy();
    const second = person(m.email);
    const refused = await callback(await startAs(second.subject));
    expect(refused.headers.get('location')).toContain('error=already_linked');
    expect(refused.headers.get('set-auth-token')).toBeNull();
    expect(await SsoLink.get({ providerId: 'oidc', subject: second.subject }, { consistent: true })).toBeUndefined();
    expect(await SsoMemberLink.get({ userId: m.id, providerId: 'oidc' }, { consistent: true })).toMatchObject({
      subject: first.subject,
    });
  });

  it("links by Entra ID's xms_edov where the token has no email_verified, and never against an explicit false", async () => {
    const entra = await newMember();
    const edov = randomUUID();
    idp.people.set(edov, { email: entra.email, name: 'Entra', emailVerified: null, domainOwnerVerified: true });
    const res = await callback(await startAs(edov));
    expect(res.headers.get('location')).toBe(`${baseUrl()}/welcome`);
    const token = res.headers.get('set-auth-token')!;
    expect((await api('GET', '/users/me/profile', { token })).body.id).toBe(entra.id);

    for (const claims of [
      { emailVerified: null },
      { emailVerified: null, domainOwnerVerified: false },
      { emailVerified: false, domainOwnerVerified: true },
    ]) {
      const m = await newMember();
      const subject = randomUUID();
      idp.people.set(subject, { email: m.email, name: 'Not vouched for', ...claims });
      const refused = await callback(await startAs(subject));
      expect(refused.headers.get('location')).toContain('error=email_not_verified');
      expect(refused.headers.get('set-auth-token')).toBeNull();
      expect(await SsoMemberLink.get({ userId: m.id, providerId: 'oidc' }, { consistent: true })).toBeUndefined();
    }
  });

  it('refuses a deactivated member, linked or not', async () => {
    const a = await admin();
    for (const linkFirst of [false, true]) {
      const m = await newMember();
      const { subject } = person(m.email);
      if (linkFirst) expect((await callback(await startAs(subject))).status).toBe(302);
      const off = await api('PATCH', `/admin/members/${m.id}/status`, {
        token: a.token,
        body: { status: 'deactivated' },
      });
      expect(off.status).toBe(200);
      const res = await callback(await startAs(subject));
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`${baseUrl()}/welcome?error=account_deactivated`);
      expect(res.headers.get('set-auth-token')).toBeNull();
      expect(sessionCookieSet(res)).toBe(false);
    }
  });

  it('refuses a replayed callback, an unknown state and a code moved to another sign-in', async () => {
    const m = await newMember();
    const { subject } = person(m.email);
    const url = await startAs(subject);
    expect((await callback(url)).status).toBe(302);
    // The same callback again: its state was taken.
    const replay = await callback(url);
    expect(replay.status).toBe(400);
    expect(replay.headers.get('set-auth-token')).toBeNull();
    expect(((await replay.json()) as { code: string }).code).toBe('INVALID_STATE');

    const unknown = new URL(url);
    unknown.searchParams.set('state', 'made-up-state');
    expect((await callback(unknown.href)).status).toBe(400);
    const none = new URL(url);
    none.searchParams.delete('state');
    expect((await callback(none.href)).status).toBe(400);

    // A fresh code from one sign-in with the state of another: the other's PKCE verifier does not fit.
    const one = new URL(await startAs(subject));
    const other = new URL(await startAs(subject));
    one.searchParams.set('state', other.searchParams.get('state')!);
    const moved = await callback(one.href);
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe(`${baseUrl()}/welcome?error=code_refused`);
    expect(moved.headers.get('set-auth-token')).toBeNull();
  });

  it('refuses a foreign callback URL at sign-in, and unknown providers and domains', async () => {
    for (const callbackURL of ['https://evil.example.net/steal', '//evil.example.net/x', 'javascript:alert(1)']) {
      const res = await client().signIn.sso({ providerId: 'oidc', callbackURL } as never);
      expect(res.error).toMatchObject({ status: 400, code: 'INVALID_CALLBACK_URL' });
    }
    const errorUrl = await client().signIn.sso({
      providerId: 'oidc',
      callbackURL: '/ok',
      errorCallbackURL: 'https://evil.example.net/',
    } as never);
    expect(errorUrl.error).toMatchObject({ status: 400, code: 'INVALID_CALLBACK_URL' });
    expect((await client().signIn.sso({ providerId: 'other', callbackURL: '/' } as never)).error).toMatchObject({
      status: 404,
    });
    expect(
      (await client().signIn.sso({ email: 'someone@elsewhere.example', callbackURL: '/' } as never)).error,
    ).toMatchObject({ status: 404, code: 'PROVIDER_NOT_FOUND' });
    // By e-mail on a served domain: the provider gets it as login_hint.
    const byEmail = await client().signIn.sso({ email: 'Someone@Example.com', callbackURL: '/' } as never);
    expect(new URL((byEmail.data as { url: string }).url).searchParams.get('login_hint')).toBe('someone@example.com');
  });

  // Last: it stops the provider.
  it('refuses, without a session, when the provider cannot be reached for the code', async () => {
    const m = await newMember();
    const { subject } = person(m.email);
    const url = await startAs(subject);
    await idp.stop();
    const res = await callback(url);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${baseUrl()}/welcome?error=provider_unavailable`);
    expect(res.headers.get('set-auth-token')).toBeNull();
  });
});
