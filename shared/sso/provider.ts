import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { env } from '../config/env.ts';
import { oidcClientSecret } from './client-secret.ts';

/** The one OpenID Connect provider this service trusts, configured by its settings (docs/sso.md). */
export const OIDC_PROVIDER_ID = 'oidc';

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

/** Plain http to the provider only in the local runtime (the test and demo identity providers). */
const insecure = () => ({ [oauth.allowInsecureRequests]: env.runtime === 'local' });

// Per instance caches of what the provider publishes (its metadata and its keys): a cache only, every
// instance fetches its own and nothing depends on another instance's.
let metadata: { issuer: string; as: Promise<oauth.AuthorizationServer> } | undefined;
let keys: { uri: string; set: ReturnType<typeof createRemoteJWKSet> } | undefined;

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

/** What the service uses of a validated sign-in at the provider. */
export interface OidcIdentity {
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
}

/** Why a callback is refused, as the `error` of the redirect (docs/sso.md). */
export class SsoRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Completes the authorization code flow: checks the callback's parameters (state, `iss`, the
 * provider's error), exchanges the code with the PKCE verifier and the client secret, and validates the
 * ID token (issuer, audience, expiry, nonce, and its signature with the provider's JWKS). The e-mail
 * claims come from the ID token, else from the userinfo endpoint.
 */
export async function completeAuthorization(
  settings: OidcSettings,
  callback: URLSearchParams,
  flow: { state: string; nonce: string; codeVerifier: string; redirectUri: string },
): Promise<OidcIdentity> {
  const as = await authorizationServer(settings);
  const client: oauth.Client = { client_id: settings.clientId };
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, client, callback, flow.state);
  } catch (err) {
    if (err instanceof oauth.AuthorizationResponseError)
      throw new SsoRefusal('provider_error', `The identity provider refused: ${err.error}.`);
    throw new SsoRefusal('invalid_callback', 'The callback from the identity provider is not valid.');
  }
  let tokens: oauth.TokenEndpointResponse;
  try {
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(oidcClientSecret()),
      params,
      flow.redirectUri,
      flow.codeVerifier,
      insecure(),
    );
    tokens = await oauth.processAuthorizationCodeResponse(as, client, res, {
      expectedNonce: flow.nonce,
      requireIdToken: true,
    });
  } catch (err) {
    if (err instanceof oauth.ResponseBodyError || err instanceof oauth.OperationProcessingError)
      throw new SsoRefusal('code_refused', 'The identity provider did not accept the code.');
    throw err;
  }
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  if (!claims || !tokens.id_token) throw new SsoRefusal('invalid_id_token', 'No ID token came back.');
  await verifySignature(settings, as, tokens.id_token);
  let email = typeof claims.email === 'string' ? claims.email : undefined;
  let verified = claims.email_verified === true;
  let name = typeof claims.name === 'string' ? claims.name : undefined;
  if (!email && as.userinfo_endpoint) {
    const res = await oauth.userInfoRequest(as, client, tokens.access_token, insecure());
    const info = await oauth.processUserInfoResponse(as, client, claims.sub, res);
    email = typeof info.email === 'string' ? info.email : undefined;
    verified = info.email_verified === true;
    name ??= typeof info.name === 'string' ? info.name : undefined;
  }
  return { subject: claims.sub, email: email?.toLowerCase(), emailVerified: verified, name };
}

async function verifySignature(settings: OidcSettings, as: oauth.AuthorizationServer, idToken: string) {
  if (!as.jwks_uri) throw new SsoRefusal('invalid_id_token', 'The identity provider publishes no keys.');
  if (keys?.uri !== as.jwks_uri) keys = { uri: as.jwks_uri, set: createRemoteJWKSet(new URL(as.jwks_uri)) };
  try {
    await jwtVerify(idToken, keys.set, { issuer: as.issuer, audience: settings.clientId });
  } catch {
    throw new SsoRefusal('invalid_id_token', 'The ID token is not signed by the identity provider.');
  }
}
