import { entity } from '../db/entity.ts';
import {
  credentialsKey,
  emailKey,
  passwordCheckThrottleKey,
  resetTokenKey,
  sessionKey,
  sessionsIndex,
  signInThrottleKey,
} from '../db/keys.ts';

/** The accounts area's entities (docs/data-model.md, Accounts and sessions), each declared once. */

export interface SessionItem {
  pk: string;
  sk: string;
  entity: 'Session';
  /**
   * The SHA-256 of the token, which the key is built from (stored so the key derives from the item;
   * the partition key holds it already). Sessions written before it was stored lack it: reads never need it.
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
}
/** A session, addressed by its token's hash; gsi1 lists a person's sessions by creation. */
export const Session = entity<SessionItem, [tokenHash: string]>({
  name: 'Session',
  key: sessionKey,
  keyOf: (s) => [s.tokenHash],
  indexes: [
    {
      index: sessionsIndex.index,
      pk: (s) => sessionsIndex.pk(s.userId),
      sk: (s) => sessionsIndex.sk(s.createdAt, s.id),
    },
  ],
});

/** The password hash, apart from the profile so profile reads never carry it. */
export interface CredentialsItem {
  pk: string;
  sk: string;
  entity: 'Credentials';
  userId: string;
  passwordHash: string;
  /** Who set it (the change feed's attribution of member.updated). */
  actorId?: string;
}
export const Credentials = entity<CredentialsItem, [userId: string]>({
  name: 'Credentials',
  key: credentialsKey,
  keyOf: (c) => [c.userId],
});

/** The claim on an e-mail address (lower-case): uniqueness, and the sign-in lookup of its person. */
export interface EmailClaimItem {
  pk: string;
  sk: string;
  entity: 'EmailClaim';
  email: string;
  userId: string;
}
export const EmailClaim = entity<EmailClaimItem, [email: string]>({
  name: 'EmailClaim',
  key: emailKey,
  keyOf: (c) => [c.email],
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
export interface SignInThrottleItem extends ThrottleWindow {
  pk: string;
  sk: string;
  entity: 'SignInThrottle';
  email: string;
}
export const SignInThrottle = entity<SignInThrottleItem, [email: string]>({
  name: 'SignInThrottle',
  key: signInThrottleKey,
  keyOf: (t) => [t.email],
});
/** Checks of a signed-in person's current password (change-password). */
export interface PasswordCheckThrottleItem extends ThrottleWindow {
  pk: string;
  sk: string;
  entity: 'PasswordCheckThrottle';
  userId: string;
}
export const PasswordCheckThrottle = entity<PasswordCheckThrottleItem, [userId: string]>({
  name: 'PasswordCheckThrottle',
  key: passwordCheckThrottleKey,
  keyOf: (t) => [t.userId],
});

/** A password-reset token, addressed by its hash (created by operators only; see accounts.ts). */
export interface ResetTokenItem {
  pk: string;
  sk: string;
  entity: 'ResetToken';
  tokenHash: string;
  userId: string;
  expiresAt: string;
}
export const ResetToken = entity<ResetTokenItem, [tokenHash: string]>({
  name: 'ResetToken',
  key: resetTokenKey,
  keyOf: (t) => [t.tokenHash],
});
