import * as oauth from 'oauth4webapi';
import { env } from '../config/env.ts';
import { notFound } from '../errors.ts';

/** The one OpenID Connect provider this service trusts, configured by its settings (docs/sso.md). */
export const OIDC_PROVIDER_ID = 'oidc';

export const ssoNotConfigured = () => notFound('Single sign-on is not configured.', 'PROVIDER_NOT_FOUND');

export interface OidcSettings {
  issuer: URL;
  clientId: string;
  emailDomains: string[];
}

/** The provider's settings, or undefined when single sign-on is off (no issuer or client id). */
export function oidcSettings(): OidcSettings | undefined {
  const issuer = env.oidcIssuer;
  const clientId = env.oidcClientId;
  if (!issuer || !clientId) return undefined;
  return { issuer: new URL(issuer), clientId, emailDomains: env.oidcEmailDomains };
}

/** Whether a call to the provider failed on the network (its fetch), not on what it answered. */
export const unreachable = (err: unknown) => err instanceof TypeError && err.message === 'fetch failed';

/** Plain http to the provider only in the local runtime (the test and demo identity providers). */
export const insecure = () => ({ [oauth.allowInsecureRequests]: env.runtime === 'local' });

// A per instance cache of the provider's metadata: a cache only, every instance fetches its own and
// nothing depends on another instance's.
let metadata: { issuer: string; as: Promise<oauth.AuthorizationServer> } | undefined;

/** The provider's discovery document, fetched once per instance. */
export function authorizationServer(settings: OidcSettings): Promise<oauth.AuthorizationServer> {
  const issuer = settings.issuer.href;
  if (metadata?.issuer !== issuer) {
    const as = oauth
      .discoveryRequest(settings.issuer, { algorithm: 'oidc', ...insecure() })
      .then((res) => oauth.processDiscoveryResponse(settings.issuer, res));
    metadata = { issuer, as };
    // A failed fetch is not kept: the next sign-in tries again.
    as.catch(() => {
      if (metadata?.as === as) metadata = undefined;
    });
  }
  return metadata.as;
}

/** The authorization request: code flow with PKCE (S256), state and nonce. */
export async function authorizationUrl(
  settings: OidcSettings,
  p: { redirectUri: string; state: string; nonce: string; codeVerifier: string; loginHint?: string },
): Promise<string> {
  const as = await authorizationServer(settings);
  if (!as.authorization_endpoint) throw new Error('The identity provider publishes no authorization endpoint.');
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', p.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', 'openid email profile');
  url.searchParams.set('state', p.state);
  url.searchParams.set('nonce', p.nonce);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(p.codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  if (p.loginHint) url.searchParams.set('login_hint', p.loginHint);
  return url.href;
}
