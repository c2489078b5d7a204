import { Credentials, EmailClaim, ResetToken, type SessionItem } from '../auth/entities.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { createSession, DEACTIVATED_CODE, DEACTIVATED_MESSAGE, endSessions } from '../auth/sessions.ts';
import { forgiveAttempts, passwordCheckThrottle, signInThrottle, takeAttempt } from '../auth/throttle.ts';
import { hashToken } from '../auth/tokens.ts';
import { breakGlassEmail } from '../config/break-glass.ts';
import { env } from '../config/env.ts';
import { getMany, isConditionFailure, keyString, transact, write } from '../db/table.ts';
import { conflict, forbidden, invalid, notFound, unauthenticated } from '../errors.ts';
import { activateOnFirstSignIn } from '../people/activation.ts';
import { User, type UserItem } from '../people/entities.ts';
import { getUser } from '../people/users.ts';

const INVALID_CREDENTIALS = 'Invalid email or password.';
/** A user id no person has (ids are UUIDs): what an unknown address's sign-in reads instead. */
const NOBODY = 'no-such-person';

export const toSessionUser = (u: UserItem) => ({
  id: u.id,
  name: u.name,
  email: u.email,
  image: u.image ?? null,
  role: u.role,
  status: u.status,
  // A super admin provisioned the address, so it counts as verified (docs/client-developers.md, "better-auth's client").
  emailVerified: true,
  createdAt: u.joinedAt,
  updatedAt: u.updatedAt ?? u.joinedAt,
});

const passwordSignInOff = () =>
  forbidden('Password sign-in is off: sign in with single sign-on.', 'PASSWORD_SIGN_IN_OFF');

/**
 * Email and password sign-in (docs/security.md): one password evaluation taken per address before
 * comparing, the same 401 for a wrong address or password, the deactivated message only with the
 * right password, pending → active on success. `receivedAt`: when the request arrived.
 */
export async function signIn(
  email: string,
  password: string,
  userAgent: string | null,
  receivedAt: number,
): Promise<{ token: string; session: SessionItem; user: UserItem }> {
  const address = email.trim().toLowerCase();
  // With password sign-in off (docs/sso.md) only the break-glass address is checked at all: any other
  // is refused before its password is, so the answer says nothing about whether the password was right.
  if (env.passwordSignInOff && address !== breakGlassEmail()) throw passwordSignInOff();
  const throttle = signInThrottle(address);
  await takeAttempt(throttle, receivedAt, 'Too many failed sign-in attempts.');
  const owner = await EmailClaim.get({ email: address }, { consistent: true });
  // An unknown address reads a person who cannot exist, in the same batch read a known one makes, and
  // compares against a decoy hash of the same scrypt cost: both paths make the same requests and the
  // same key derivation, so neither their number nor their time tells which addresses exist.
  const userId = owner?.userId ?? NOBODY;
  // One batch read of the person's partition (profile and credentials): untyped, each item told by its entity.
  const profileKey = User.key({ id: userId });
  const credentialsKey = Credentials.key({ userId });
  const found = await getMany([profileKey, credentialsKey]);
  const profile = found.get(keyString(profileKey));
  const stored = found.get(keyString(credentialsKey));
  const user = owner && User.is(profile) ? profile : undefined;
  const creds = owner && Credentials.is(stored) ? stored : undefined;
  const ok = await verifyPassword(password, creds?.passwordHash);
  if (!ok || !user) throw unauthenticated(INVALID_CREDENTIALS, 'INVALID_EMAIL_OR_PASSWORD');
  if (user.status === 'deactivated') throw unauthenticated(DEACTIVATED_MESSAGE, DEACTIVATED_CODE);
  await forgiveAttempts(throttle);
  // With password sign-in off (docs/sso.md), only the break-glass super admin signs in with a password.
  // The break-glass address keeps its password only while it is a super admin's.
  if (env.passwordSignInOff && user.role !== 'super_admin') throw passwordSignInOff();
  if (user.status === 'pending') user.status = (await activateOnFirstSignIn(user.id)).status;
  const { token, session } = await createSession(user.id, userAgent);
  return { token, session, user };
}

/** `actorId`: who set it (the change feed's attribution of member.updated); the person themself by default. */
export async function setPassword(userId: string, password: string, actorId = userId): Promise<void> {
  const passwordHash = await hashPassword(password);
  try {
    // Conditioned on the profile in the same transaction: a person whose erasure started (or who is
    // gone) gets no credentials again (issue 33, the erasure's door).
    await transact([
      User.check({ id: userId }, { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(erasureId)' }),
      Credentials.put({ userId, passwordHash, actorId }),
    ]);
  } catch (err) {
    if (isConditionFailure(err)) throw conflict('This account is being erased and cannot change any more.');
    throw err;
  }
}

/**
 * Changes a signed-in person's password after checking the current one, throttled per account like
 * sign-in. With `revokeOthers`, every session of the person ends and the caller gets a new one (its
 * token is returned; a token that may have leaked stops working too); otherwise `token` is null.
 */
export async function changePassword(
  caller: { userId: string; tokenHash: string },
  current: string,
  next: string,
  opts: { revokeOthers: boolean; receivedAt: number; userAgent: string | null },
): Promise<{ token: string | null; user: UserItem }> {
  const throttle = passwordCheckThrottle(caller.userId);
  await takeAttempt(throttle, opts.receivedAt, 'Too many wrong passwords.');
  const creds = await Credentials.get({ userId: caller.userId }, { consistent: true });
  if (!(await verifyPassword(current, creds?.passwordHash)))
    throw invalid('The current password is not correct.', 'INVALID_PASSWORD');
  await forgiveAttempts(throttle);
  await setPassword(caller.userId, next);
  let token: string | null = null;
  if (opts.revokeOthers) {
    token = (await createSession(caller.userId, opts.userAgent)).token;
    await endSessions(caller.userId, hashToken(token));
  }
  const user = await getUser(caller.userId, true);
  if (!user) throw unauthenticated();
  return { token, user };
}

/** Reset links: no e-mail provider is wired, so tokens are only ever created by operators (none today). */
export async function resetPassword(token: string, next: string): Promise<void> {
  const tokenHash = hashToken(token);
  const item = await ResetToken.get({ tokenHash }, { consistent: true });
  if (!item || Date.parse(item.expiresAt) <= Date.now())
    throw invalid('This reset link is not valid or has expired.', 'INVALID_TOKEN');
  await write(ResetToken.remove({ tokenHash }));
  await setPassword(item.userId, next);
  await endSessions(item.userId);
}

/** A super admin sets a password: the person is signed out everywhere unless it is the caller's own. */
export async function adminSetPassword(actorId: string, userId: string, password: string): Promise<UserItem> {
  const user = await getUser(userId, true);
  if (!user) throw notFound('No such person.');
  await setPassword(userId, password, actorId);
  if (actorId !== userId) await endSessions(userId);
  return user;
}
