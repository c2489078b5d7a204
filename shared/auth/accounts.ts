import { credentialsKey, emailKey, resetTokenKey, signInThrottleKey, userKey } from '../db/keys.ts';
import { deleteItem, getItem, getMany, isConditionFailure, putItem, updateItem } from '../db/table.ts';
import { badRequest, tooManyRequests, unauthorized } from '../http/errors.ts';
import { activateOnFirstSignIn } from '../people/activation.ts';
import { getUser, type UserItem } from '../people/users.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { createSession, DEACTIVATED_MESSAGE, endSessions, type SessionItem } from './sessions.ts';
import { hashToken } from './tokens.ts';

export const THROTTLE_LIMIT = 5;
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
const INVALID_CREDENTIALS = 'Invalid email or password.';

export const toSessionUser = (u: UserItem) => ({
  id: u.id,
  name: u.name,
  email: u.email,
  image: u.image ?? null,
  role: u.role,
  status: u.status,
});

interface ThrottleItem {
  windowStart: number;
  failures: number;
}

async function assertNotThrottled(email: string, now: number): Promise<void> {
  const t = await getItem<ThrottleItem & { pk: string; sk: string }>(signInThrottleKey(email), true);
  if (t && t.failures >= THROTTLE_LIMIT && t.windowStart + THROTTLE_WINDOW_MS > now) {
    const minutes = Math.ceil((t.windowStart + THROTTLE_WINDOW_MS - now) / 60000);
    throw tooManyRequests(
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }
}

/** Counts a failure inside the current window, or opens a new window; atomic under concurrency. */
async function recordFailure(email: string, now: number): Promise<void> {
  const key = signInThrottleKey(email);
  const ttl = Math.floor((now + THROTTLE_WINDOW_MS) / 1000) + 3600;
  try {
    await updateItem({
      Key: key,
      UpdateExpression: 'ADD failures :one SET #ttl = :ttl',
      ConditionExpression: 'windowStart > :cutoff',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':cutoff': now - THROTTLE_WINDOW_MS, ':ttl': ttl },
    });
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    await putItem(
      { ...key, entity: 'SignInThrottle', windowStart: now, failures: 1, ttl },
      {
        ConditionExpression: 'attribute_not_exists(windowStart) OR windowStart <= :cutoff',
        ExpressionAttributeValues: { ':cutoff': now - THROTTLE_WINDOW_MS },
      },
    ).catch(async (e) => {
      // Another failure opened the window meanwhile: count this one in it.
      if (!isConditionFailure(e)) throw e;
      await updateItem({ Key: key, UpdateExpression: 'ADD failures :one', ExpressionAttributeValues: { ':one': 1 } });
    });
  }
}

/**
 * Email and password sign-in (decisions 1): throttled per address, the same 401 for a wrong address
 * or password, the deactivated message only with the right password, pending → active on success.
 */
export async function signIn(
  email: string,
  password: string,
  userAgent: string | null,
): Promise<{ token: string; session: SessionItem; user: UserItem }> {
  const address = email.trim().toLowerCase();
  const now = Date.now();
  await assertNotThrottled(address, now);
  const owner = await getItem<{ userId: string }>(emailKey(address), true);
  const found = owner
    ? await getMany<Record<string, any>>([userKey(owner.userId), credentialsKey(owner.userId)])
    : new Map();
  const user = owner ? (found.get(`${userKey(owner.userId).pk}|PROFILE`) as UserItem | undefined) : undefined;
  const creds = owner ? found.get(`${credentialsKey(owner.userId).pk}|CREDENTIALS`) : undefined;
  const ok = await verifyPassword(password, creds?.passwordHash as string | undefined);
  if (!ok || !user) {
    await recordFailure(address, now);
    throw unauthorized(INVALID_CREDENTIALS);
  }
  if (user.status === 'deactivated') throw unauthorized(DEACTIVATED_MESSAGE);
  await deleteItem(signInThrottleKey(address));
  if (user.status === 'pending') user.status = (await activateOnFirstSignIn(user.id)).status;
  const { token, session } = await createSession(user.id, userAgent);
  return { token, session, user };
}

/** `actorId`: who set it (the change feed's attribution of member.updated); the person themself by default. */
export async function setPassword(userId: string, password: string, actorId = userId): Promise<void> {
  await putItem({
    ...credentialsKey(userId),
    entity: 'Credentials',
    passwordHash: await hashPassword(password),
    actorId,
  });
}

export async function changePassword(
  userId: string,
  current: string,
  next: string,
  opts: { revokeOthers: boolean; keepTokenHash: string },
) {
  const creds = await getItem<{ passwordHash: string }>(credentialsKey(userId), true);
  if (!(await verifyPassword(current, creds?.passwordHash))) throw badRequest('The current password is not correct.');
  await setPassword(userId, next);
  if (opts.revokeOthers) await endSessions(userId, opts.keepTokenHash);
  const user = await getUser(userId, true);
  if (!user) throw unauthorized();
  return user;
}

/** Reset links: no e-mail provider is wired, so tokens are only ever created by operators (none today). */
export async function resetPassword(token: string, next: string): Promise<void> {
  const key = resetTokenKey(hashToken(token));
  const item = await getItem<{ userId: string; expiresAt: string }>(key, true);
  if (!item || Date.parse(item.expiresAt) <= Date.now())
    throw badRequest('This reset link is not valid or has expired.');
  await deleteItem(key);
  await setPassword(item.userId, next);
  await endSessions(item.userId);
}
