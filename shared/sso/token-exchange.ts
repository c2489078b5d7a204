import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { oidcClientSecret } from './client-secret.ts';
import { authorizationServer, insecure, type OidcSettings, unreachable } from './provider.ts';

// The provider's keys, per instance (a cache: jose refetches them when a token names an unknown key).
let keys: { uri: string; set: ReturnType<typeof createRemoteJWKSet> } | undefined;

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
  let verified = vouchedFor(claims);
  let name = typeof claims.name === 'string' ? claims.name : undefined;
  if (!email && as.userinfo_endpoint) {
    const res = await oauth.userInfoRequest(as, client, tokens.access_token, insecure());
    const info = await oauth.processUserInfoResponse(as, client, claims.sub, res);
    email = typeof info.email === 'string' ? info.email : undefined;
    verified = vouchedFor(info);
    name ??= typeof info.name === 'string' ? info.name : undefined;
  }
  return { subject: claims.sub, email: email?.toLowerCase(), emailVerified: verified, name };
}

/**
 * Whether the provider vouches for the address: `email_verified` (true, or the string some providers'
 * userinfo answers), or, only where that claim is absent (Entra ID never sends it for work accounts),
 * Entra's optional `xms_edov`: the address's domain is verified by the tenant that issued the token.
 */
function vouchedFor(c: Record<string, unknown>): boolean {
  if (c.email_verified !== undefined) return c.email_verified === true || c.email_verified === 'true';
  return c.xms_edov === true;
}

async function verifySignature(settings: OidcSettings, as: oauth.AuthorizationServer, idToken: string) {
  if (!as.jwks_uri) throw new SsoRefusal('invalid_id_token', 'The identity provider publishes no keys.');
  if (keys?.uri !== as.jwks_uri) keys = { uri: as.jwks_uri, set: createRemoteJWKSet(new URL(as.jwks_uri)) };
  try {
    await jwtVerify(idToken, keys.set, { issuer: as.issuer, audience: settings.clientId });
  } catch (err) {
    if (keySetUnavailable(err))
      throw new SsoRefusal('provider_unavailable', 'The identity provider’s signing keys cannot be fetched.');
    throw new SsoRefusal('invalid_id_token', 'The ID token is not signed by the identity provider.');
  }
}

/**
 * Whether the key set could not be fetched (the provider unreachable, slow, or answering other than
 * 200 with JSON): jose's generic error is only thrown for the fetch, every verdict on the token has a
 * code of its own.
 */
const keySetUnavailable = (err: unknown) =>
  unreachable(err) ||
  err instanceof errors.JWKSTimeout ||
  (err instanceof errors.JOSEError && err.code === 'ERR_JOSE_GENERIC');
