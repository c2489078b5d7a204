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
