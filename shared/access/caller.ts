import { Session, type SessionItem } from '../auth/entities.ts';
import { DAY_MS, DEACTIVATED_CODE, DEACTIVATED_MESSAGE, ignoreEnded, SESSION_DAYS, ttlFor } from '../auth/sessions.ts';
import { hashToken } from '../auth/tokens.ts';
import { PRESENT } from '../db/entity.ts';
import { write } from '../db/table.ts';
import { unauthenticated } from '../errors.ts';
import type { UserItem } from '../people/entities.ts';
import { getUser } from '../people/users.ts';

/**
 * Who is calling: a session's token resolved to its person (the sessions themselves are auth's; the
 * person is people's, so this stands above both).
 */

/** The person behind a request, read fresh on every request (role and status included). */
export interface Caller {
  userId: string;
  role: UserItem['role'];
  name: string;
  email: string;
  sessionId: string;
  tokenHash: string;
  user: UserItem;
  session: SessionItem;
}

/**
 * Resolves a token to its caller. Expiry is checked here on every read (TTL only cleans up and can
 * lag by days). `refresh` extends a session used more than a day after its last refresh; grievance
 * routes pass false so they never write an item keyed by the caller.
 */
export async function authenticate(token: string, { refresh }: { refresh: boolean }): Promise<Caller> {
  if (!token || token.length > 200) throw unauthenticated();
  const tokenHash = hashToken(token);
  const session = await Session.get({ tokenHash }, { consistent: true });
  if (!session) throw unauthenticated();
  if (session.revoked === 'deactivated') throw unauthenticated(DEACTIVATED_MESSAGE, DEACTIVATED_CODE);
  const now = new Date();
  if (Date.parse(session.expiresAt) <= now.getTime())
    throw unauthenticated('Your session has expired. Sign in again.', 'SESSION_EXPIRED');
  const user = await getUser(session.userId, true);
  if (!user) throw unauthenticated();
  if (user.status === 'deactivated') throw unauthenticated(DEACTIVATED_MESSAGE, DEACTIVATED_CODE);
  if (refresh && now.getTime() - Date.parse(session.updatedAt) > DAY_MS) {
    const expires = new Date(now.getTime() + SESSION_DAYS * DAY_MS);
    session.updatedAt = now.toISOString();
    session.expiresAt = expires.toISOString();
    session.ttl = ttlFor(expires);
    await write(
      Session.update(
        { tokenHash },
        {
          UpdateExpression: 'SET updatedAt = :u, expiresAt = :e, #ttl = :t',
          ...PRESENT,
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':u': session.updatedAt, ':e': session.expiresAt, ':t': session.ttl },
        },
      ),
    ).catch(ignoreEnded);
  }
  return {
    userId: user.id,
    role: user.role,
    name: user.name,
    email: user.email,
    sessionId: session.id,
    tokenHash,
    user,
    session,
  };
}
