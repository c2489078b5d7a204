import { type EntityItem, entity, shape } from '../db/entity.ts';

/** The accounts area's entities (docs/data-model.md, Accounts and sessions), each declared once. */

const lowerCase = (value: string) => value.toLowerCase();

/**
 * A session, addressed by the SHA-256 of its token (the token itself is never stored); gsi1 lists a
 * person's sessions by creation.
 */
export const Session = entity({
  name: 'Session',
  fields: shape<{
    /**
     * The SHA-256 of the token, which the key is built from (stored so the key derives from the item;
     * the partition key holds it already).
     */
    tokenHash: string;
    id: string;
    userId: string;
    createdAt: string;
    updatedAt: string;
    expiresAt: string;
    userAgent: string | null;
    /** Set when ended by deactivation: the token then answers the deactivated message. */
    revoked?: 'deactivated';
    ttl: number;
  }>(),
  key: { pk: ['SESSION', 'tokenHash'], sk: ['SESSION'] },
  indexes: { byPerson: { index: 'gsi1', pk: ['SESSIONS', 'userId'], sk: ['createdAt', 'id'] } },
  // Sessions written before it was stored lack it (migration 0001 stores it): reads never need it.
  legacy: ['tokenHash'],
});
export type SessionItem = EntityItem<typeof Session>;

/** The password hash, apart from the profile so profile reads never carry it. */
export const Credentials = entity({
  name: 'Credentials',
  fields: shape<{
    userId: string;
    passwordHash: string;
    /** Who set it (the change feed's attribution of member.updated). */
    actorId?: string;
  }>(),
  key: { pk: ['USER', 'userId'], sk: ['CREDENTIALS'] },
  legacy: ['userId'],
});

/** The claim on an e-mail address (lower-case): uniqueness, and the sign-in lookup of its person. */
export const EmailClaim = entity({
  name: 'EmailClaim',
  fields: shape<{ email: string; userId: string }>(),
  key: { pk: ['EMAIL', { field: 'email', as: lowerCase }], sk: ['EMAIL'] },
  legacy: ['email'],
});

/**
 * One throttling window of password evaluations (shared/auth/throttle.ts): `taken` counts every
 * evaluation of the window, `sinceReset` those since the last success, which sets `resetAt`.
 */
export interface ThrottleWindow {
  windowStart: number;
  taken: number;
  sinceReset: number;
  resetAt?: number;
  ttl: number;
}
/** Sign-ins per e-mail address (lower-case), whoever tries them. */
export const SignInThrottle = entity({
  name: 'SignInThrottle',
  fields: shape<ThrottleWindow & { email: string }>(),
  key: { pk: ['SIGNIN', { field: 'email', as: lowerCase }], sk: ['THROTTLE'] },
});
/** Checks of a signed-in person's current password (change-password). */
export const PasswordCheckThrottle = entity({
  name: 'PasswordCheckThrottle',
  fields: shape<ThrottleWindow & { userId: string }>(),
  key: { pk: ['PWCHECK', 'userId'], sk: ['THROTTLE'] },
});

/** A password-reset token, addressed by its hash (created by operators only; see accounts.ts). */
export const ResetToken = entity({
  name: 'ResetToken',
  fields: shape<{ tokenHash: string; userId: string; expiresAt: string }>(),
  key: { pk: ['RESET', 'tokenHash'], sk: ['RESET'] },
  legacy: ['tokenHash'],
});

// Single sign-on with OpenID Connect (shared/sso/, docs/sso.md).

/**
 * One sign-in in flight between `POST /auth/sign-in/sso` and the provider's callback, addressed by the
 * SHA-256 of its `state` (the state itself is never stored). It holds the PKCE verifier and the nonce,
 * so nothing of the flow lives in a function's memory; the callback deletes it on a condition, so a
 * state works once. The table's TTL removes the abandoned ones; expiry is checked on read as well.
 */
export const SsoState = entity({
  name: 'SsoState',
  fields: shape<{
    stateHash: string;
    providerId: string;
    codeVerifier: string;
    nonce: string;
    /** Where the browser goes after a sign-in: checked against the trusted origins at sign-in. */
    callbackURL: string;
    /** Where it goes after a refusal (`?error=<code>`); the callback URL when absent. */
    errorCallbackURL?: string;
    /** The redirect URI sent to the provider: the code exchange must send the same. */
    redirectUri: string;
    /** The SHA-256 of the starting browser's binding cookie: the callback must come with that cookie. */
    browserHash?: string;
    /**
     * The member who was signed in when the sign-in started: a super admin's identity at the provider is
     * linked only in such a sign-in of their own, never by an address match alone (docs/sso.md).
     */
    startedBy?: string;
    expiresAt: string;
    ttl: number;
  }>(),
  key: { pk: ['SSOSTATE', 'stateHash'], sk: ['SSOSTATE'] },
});

/** The link of a provider's subject (`sub`) to the member it signs in: how every later sign-in finds them. */
export const SsoLink = entity({
  name: 'SsoLink',
  fields: shape<{ providerId: string; subject: string; userId: string; linkedAt: string }>(),
  key: { pk: ['SSOLINK', 'providerId', 'subject'], sk: ['SSOLINK'] },
});

/**
 * The same link from the member's side, in their partition: a member is linked to at most one
 * subject of a provider, so a second account at the provider with the member's address is refused
 * rather than linked silently.
 */
export const SsoMemberLink = entity({
  name: 'SsoMemberLink',
  fields: shape<{ userId: string; providerId: string; subject: string; linkedAt: string }>(),
  key: { pk: ['USER', 'userId'], sk: ['SSO', 'providerId'] },
});
