import { createHash } from 'node:crypto';
import { type EntityFields, PRESENT } from '../db/entity.ts';
import { newId } from '../db/ids.ts';
import { isConditionFailure, write } from '../db/table.ts';
import { notFound } from '../errors.ts';
import { Session, type SessionItem } from './entities.ts';
import { hashToken, newToken } from './tokens.ts';

export const SESSION_DAYS = 7;
export const DAY_MS = 24 * 3600 * 1000;
export const DEACTIVATED_MESSAGE = 'This account has been deactivated. Contact a super admin.';
export const DEACTIVATED_CODE = 'ACCOUNT_DEACTIVATED';

/**
 * A session ended meanwhile (its item deleted) fails the write's condition and simply stays ended.
 * Anything else is a real failure (a throttle, a denied action) and must not pass unseen.
 */
export const ignoreEnded = (err: unknown) => {
  if (!isConditionFailure(err)) throw err;
};

/** The token hash a stored session is keyed by (from its key: sessions written before `tokenHash` was stored lack the field). */
const tokenHashOf = (s: Pick<SessionItem, 'pk' | 'tokenHash'>) =>
  s.tokenHash ?? s.pk.slice(Session.key({ tokenHash: '' }).pk.length);

export const ttlFor = (expiresAt: Date) => Math.floor(expiresAt.getTime() / 1000) + 7 * 24 * 3600;

export async function createSession(
  userId: string,
  userAgent: string | null,
): Promise<{ token: string; session: SessionItem }> {
  const token = newToken();
  const tokenHash = hashToken(token);
  const now = new Date();
  const expires = new Date(now.getTime() + SESSION_DAYS * DAY_MS);
  const id = newId();
  const fields: EntityFields<typeof Session> = {
    tokenHash,
    id,
    userId,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    expiresAt: expires.toISOString(),
    userAgent: userAgent ? userAgent.slice(0, 400) : null,
    ttl: ttlFor(expires),
  };
  await write(Session.put(fields));
  return { token, session: Session.item(fields) };
}

/** Every live (unexpired, not revoked) session of a person, oldest first. Bounded by their devices. */
export async function listSessions(userId: string): Promise<SessionItem[]> {
  const now = Date.now();
  const all = await allSessions(userId);
  return all.filter((s) => !s.revoked && Date.parse(s.expiresAt) > now);
}

async function allSessions(userId: string): Promise<SessionItem[]> {
  return Session.queryAll({ index: 'byPerson', key: { userId } });
}

export async function endSession(tokenHash: string): Promise<void> {
  await write(Session.remove({ tokenHash }));
}

/**
 * The session's revocation handle (`Session.token`): a one-way function of the token's hash, so it is
 * stable, needs no storage, and is never a credential: a presented bearer is looked up by its own
 * hash, which no handle matches. The bearer token itself is never shown again after sign-in.
 */
export const sessionHandle = (s: Pick<SessionItem, 'pk'>): string =>
  createHash('sha256').update(`revocation-handle:${s.pk}`).digest('base64url');

/** Ends one of the person's live sessions, named by its id or its handle; 404 when it is not theirs. */
export async function revokeSession(userId: string, target: { id?: string; token?: string }): Promise<SessionItem> {
  const found = (await listSessions(userId)).find((s) =>
    target.id !== undefined ? s.id === target.id : sessionHandle(s) === target.token,
  );
  if (!found) throw notFound('No such session.', 'SESSION_NOT_FOUND');
  await write(Session.remove({ tokenHash: tokenHashOf(found) }));
  return found;
}

/** Ends every session of a person except (optionally) one, e.g. after a password change. */
export async function endSessions(userId: string, keepTokenHash?: string): Promise<void> {
  for (const s of await allSessions(userId)) {
    const tokenHash = tokenHashOf(s);
    if (tokenHash === keepTokenHash) continue;
    await write(Session.remove({ tokenHash }));
  }
}

/** Deactivation keeps the items but marks them, so old tokens answer the deactivated message. */
export async function revokeForDeactivation(userId: string): Promise<void> {
  for (const s of await allSessions(userId)) {
    if (s.revoked) continue;
    await write(
      Session.update(
        { tokenHash: tokenHashOf(s) },
        {
          UpdateExpression: 'SET revoked = :r',
          ...PRESENT,
          ExpressionAttributeValues: { ':r': 'deactivated' },
        },
      ),
    ).catch(ignoreEnded);
  }
}

export function toSessionView(s: SessionItem, currentId: string) {
  return {
    id: s.id,
    token: sessionHandle(s),
    userId: s.userId,
    createdAt: s.createdAt,
    expiresAt: s.expiresAt,
    updatedAt: s.updatedAt,
    userAgent: s.userAgent ?? null,
    // Addresses are not recorded.
    ipAddress: null,
    current: s.id === currentId,
  };
}
