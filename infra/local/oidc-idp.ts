import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * A real OpenID Connect provider (panva's `oidc-provider`) for the tests and `npm run idp`
 * (docs/sso.md): the authorization code flow with PKCE, signed ID tokens, JWKS, one confidential
 * client. Its login step has no password: the person is chosen by `login_hint` (an e-mail address of
 * one of its people), else by `chooser` (the tests set whom the next sign-in is; the demo page lists
 * the people to pick from).
 */
export interface IdpPerson {
  email: string;
  name: string;
  /** `email_verified`: true unless a test says otherwise; null leaves the claim out, as Entra ID does. */
  emailVerified?: boolean | null;
  /** Entra ID's optional `xms_edov` claim (the address's domain is verified by its tenant), when set. */
  domainOwnerVerified?: boolean;
}

/** The claims the provider releases about a person. */
const claimsOf = (sub: string, p: IdpPerson) => ({
  sub,
  email: p.email,
  ...(p.emailVerified === null ? {} : { email_verified: p.emailVerified ?? true }),
  ...(p.domainOwnerVerified === undefined ? {} : { xms_edov: p.domainOwnerVerified }),
  name: p.name,
});

export interface OidcIdp {
  issuer: string;
  /** The provider's people by subject (`sub`); a test may add and change them while it runs. */
  people: Map<string, IdpPerson>;
  /** Whom the next login without a known `login_hint` signs in as (a subject), or undefined. */
  next: { subject?: string };
  /** Parts of the provider a test takes down: `jwks`, its key set answers 503 while true. */
  outage: { jwks?: boolean };
  stop: () => Promise<void>;
}

export interface IdpOptions {
  port: number;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  people?: Map<string, IdpPerson>;
  /** An HTML page that lets a person pick whom to sign in as (the demo); without it, `next` decides. */
  chooserPage?: boolean;
}

const html = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startOidcIdp(o: IdpOptions): Promise<OidcIdp> {
  const issuer = `http://127.0.0.1:${o.port}`;
  const people = o.people ?? new Map<string, IdpPerson>();
  const next: { subject?: string } = {};
  const outage: { jwks?: boolean } = {};
  const config: Configuration = {
    clients: [
      {
        client_id: o.clientId,
        client_secret: o.clientSecret,
        redirect_uris: o.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    async findAccount(_ctx, id) {
      const p = people.get(id);
      if (!p) return undefined;
      return {
        accountId: id,
        claims: async () => claimsOf(id, p),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'] },
    // The e-mail claims in the ID token too, as Entra ID and Okta put them there.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // A first-party client: no consent step.
    async loadExistingGrant(ctx) {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['local-idp-cookie-key-not-a-secret'] },
  };
  const provider = new Provider(issuer, config);
  const callback = provider.callback();

  const subjectFor = (hint: unknown): string | undefined => {
    if (typeof hint !== 'string') return undefined;
    for (const [sub, p] of people) if (p.email.toLowerCase() === hint.toLowerCase()) return sub;
    return undefined;
  };

  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    const url = new URL(req.url ?? '/', issuer);
    const picked = url.searchParams.get('subject');
    const subject = (picked && people.has(picked) ? picked : undefined) ?? subjectFor(details.params.login_hint);
    if (!subject && o.chooserPage && !picked) {
      const rows = [...people]
        .map(
          ([sub, p]) => `<li><a href="?subject=${encodeURIComponent(sub)}">${html(p.name)} — ${html(p.email)}</a></li>`,
        )
        .join('');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Demo identity provider</title><h1>Sign in as</h1><ul>${rows}</ul>`);
      return;
    }
    const chosen = subject ?? next.subject;
    next.subject = undefined;
    if (!chosen || !people.has(chosen)) {
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'Unknown person' });
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: chosen } }, { mergeWithLastSubmission: false });
  }

  const server: Server = createServer((req, res) => {
    if (outage.jwks && req.url?.split('?')[0] === '/jwks') {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('key set unavailable');
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((err: unknown) => {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((ok) => server.listen(o.port, '127.0.0.1', ok));
  return {
    issuer,
    people,
    next,
    outage,
    stop: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
