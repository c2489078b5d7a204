import { randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { SsoState } from '../auth/entities.ts';
import { hashToken } from '../auth/tokens.ts';
import { API_PREFIX } from '../config/api-prefix.ts';
import { env } from '../config/env.ts';
import { ABSENT } from '../db/entity.ts';
import { write } from '../db/table.ts';
import { invalid, notFound, unavailable } from '../errors.ts';
import {
  authorizationUrl,
  OIDC_PROVIDER_ID,
  type OidcSettings,
  oidcSettings,
  ssoNotConfigured,
  unreachable,
} from './provider.ts';

/** How long a sign-in may take at the provider before its state is refused (and its browser cookie lives). */
export const STATE_MINUTES = 10;

function settingsFor(providerId: string | undefined, email: string | undefined): OidcSettings {
  const settings = oidcSettings();
  if (!settings) throw ssoNotConfigured();
  if (providerId !== undefined) {
    if (providerId !== OIDC_PROVIDER_ID) throw notFound('No such identity provider.', 'PROVIDER_NOT_FOUND');
    return settings;
  }
  if (email === undefined) throw invalid('Send providerId or email.', 'PROVIDER_NOT_FOUND');
  const domain = email.trim().toLowerCase().split('@').pop() ?? '';
  if (!settings.emailDomains.includes(domain))
    throw notFound('No identity provider serves this e-mail domain.', 'PROVIDER_NOT_FOUND');
  return settings;
}

/**
 * A callback URL the browser may be sent to: a path on this service, or a URL on its own origin or on
 * one of the allowed origins named in `ALLOWED_ORIGINS` (its `*` does not extend to redirects). Anything
 * else would make the sign-in an open redirect. Answers the absolute URL.
 */
export function trustedCallback(given: string, serviceOrigin: string): string {
  const refused = () =>
    invalid(`The callback URL ${given.slice(0, 200)} is not on a trusted origin.`, 'INVALID_CALLBACK_URL');
  if (given.startsWith('/') && !given.startsWith('//') && !given.startsWith('/\\')) {
    const url = new URL(given, serviceOrigin);
    if (url.origin !== serviceOrigin) throw refused();
    return url.href;
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw refused();
  }
  const trusted = new Set([serviceOrigin, ...env.allowedOrigins.filter((o) => o !== '*')]);
  if (!(url.protocol === 'https:' || url.protocol === 'http:') || !trusted.has(url.origin)) throw refused();
  return url.href;
}

/** The redirect URI the provider sends the browser back to (register it at the provider: docs/sso.md). */
export const redirectUriFor = (serviceOrigin: string, providerId = OIDC_PROVIDER_ID) =>
  `${serviceOrigin}${API_PREFIX}/auth/sso/callback/${providerId}`;

/**
 * Starts a sign-in at the identity provider: checks the callback URLs, keeps the flow's state (PKCE
 * verifier, nonce, callback URLs) in the table under the hash of `state`, and answers the provider's
 * authorization URL, which the client opens, and `binding`, the secret the starting browser keeps (a
 * cookie) and the callback must show: the state holds only its hash (docs/sso.md, login CSRF).
 * `signedIn`: the member whose session started it (how a super admin links their identity).
 */
export async function startSsoSignIn(
  input: { providerId?: string; email?: string; loginHint?: string; callbackURL?: string; errorCallbackURL?: string },
  serviceOrigin: string,
  signedIn?: string,
): Promise<{ url: string; binding: string }> {
  const settings = settingsFor(input.providerId, input.email);
  const callbackURL = trustedCallback(input.callbackURL ?? '/', serviceOrigin);
  const errorCallbackURL =
    input.errorCallbackURL === undefined ? undefined : trustedCallback(input.errorCallbackURL, serviceOrigin);
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const redirectUri = redirectUriFor(serviceOrigin);
  const url = await authorizationUrl(settings, {
    redirectUri,
    state,
    nonce,
    codeVerifier,
    loginHint: (input.loginHint ?? input.email)?.trim().toLowerCase(),
  }).catch((err: unknown) => {
    if (unreachable(err)) throw unavailable('The identity provider cannot be reached. Try again shortly.', 30);
    throw err;
  });
  const binding = randomBytes(32).toString('base64url');
  const expires = Date.now() + STATE_MINUTES * 60_000;
  await write(
    SsoState.put(
      {
        stateHash: hashToken(state),
        providerId: OIDC_PROVIDER_ID,
        codeVerifier,
        nonce,
        callbackURL,
        ...(errorCallbackURL ? { errorCallbackURL } : {}),
        redirectUri,
        browserHash: hashToken(binding),
        ...(signedIn ? { startedBy: signedIn } : {}),
        expiresAt: new Date(expires).toISOString(),
        ttl: Math.floor(expires / 1000) + 3600,
      },
      ABSENT,
    ),
  );
  return { url, binding };
}
