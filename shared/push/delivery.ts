import { Session, type SessionItem } from '../auth/entities.ts';
import { logger } from '../observability/logger.ts';
import { getUsers, type UserItem } from '../people/users.ts';
import { pushTransport } from '../transports/push.ts';
import type { PushTokenItem } from './entities.ts';
import { type PushableNotification, pushMessageFor } from './message.ts';
import { PUSH_KINDS } from './notification-kinds.ts';
import { pushEnabledFor } from './preferences.ts';
import { activePushTokens, disablePushToken, removeStaleRegistration, targetOf } from './tokens.ts';

export type { PushableNotification } from './message.ts';

/**
 * Whether a registration may still receive push: its person is active and the session that registered
 * it is live (exists, not revoked, not expired, theirs). A push carries a preview of what it announces,
 * so a device whose access ended (a lost phone's session revoked, a session expired or ended by a
 * password change or sign-out, a deactivated person) must stop receiving them at once.
 *
 * Registrations written before the session was recorded (no `sessionTokenHash`) are unfit: nothing
 * says which session, if any, still stands behind them, and delivering on the owner's activity alone
 * would keep feeding the very lost device this rule is for. They are removed; a device still in use
 * registers again with its session (clients register on every start).
 */
export function deliverable(
  t: PushTokenItem,
  owner: UserItem | undefined,
  session: SessionItem | undefined,
  now = Date.now(),
): boolean {
  return (
    owner?.status === 'active' &&
    !!t.sessionTokenHash &&
    !!session &&
    session.userId === t.userId &&
    !session.revoked &&
    Date.parse(session.expiresAt) > now
  );
}

/** The recipients' registrations fit for delivery (read with their people and sessions); the unfit are removed. */
async function liveRegistrations(recipients: string[]): Promise<Map<string, PushTokenItem[]>> {
  const [owners, tokens] = await Promise.all([
    getUsers(recipients),
    Promise.all(recipients.map(async (id) => [id, await activePushTokens(id)] as const)),
  ]);
  const all = tokens.flatMap(([, list]) => list);
  const withSession = all.filter((t) => t.sessionTokenHash);
  const found = await Session.getMany(
    withSession.map((t) => ({ tokenHash: t.sessionTokenHash! })),
    { consistent: true },
  );
  const sessions = new Map(withSession.map((t, i) => [t, found[i]]));
  const live = new Map<string, PushTokenItem[]>();
  for (const t of all) {
    const session = sessions.get(t);
    if (deliverable(t, owners.get(t.userId), session)) live.set(t.userId, [...(live.get(t.userId) ?? []), t]);
    else
      await removeStaleRegistration(t).catch((error) =>
        logger.warn('could not remove a stale push registration', { error: error as Error }),
      );
  }
  return live;
}

/**
 * Pushes recorded notifications (call it after they are committed): the push kinds only, to people
 * with push enabled, on each of their registrations whose session is live (`deliverable`). A dead endpoint disables its token, so it
 * is never tried again. Best effort: a push failure never fails the operation that notified (the bell
 * already has it), it is logged.
 */
export async function deliverPush(list: readonly PushableNotification[]): Promise<void> {
  const due = list.filter((n) => PUSH_KINDS.has(n.kind));
  if (due.length === 0) return;
  try {
    const enabled = await pushEnabledFor(due.map((n) => n.recipientId));
    const wanted = due.filter((n) => enabled.get(n.recipientId));
    if (wanted.length === 0) return;
    const recipients = [...new Set(wanted.map((n) => n.recipientId))];
    const [actors, tokens] = await Promise.all([
      getUsers(wanted.map((n) => n.actorId).filter((a): a is string => !!a)),
      liveRegistrations(recipients),
    ]);
    for (const n of wanted) {
      const message = pushMessageFor(n, n.actorId ? (actors.get(n.actorId)?.name ?? null) : null);
      for (const t of tokens.get(n.recipientId) ?? []) {
        try {
          if ((await pushTransport().send(targetOf(t), message)) === 'gone') await disablePushToken(t.tokenHash);
        } catch (error) {
          logger.warn('push delivery failed', { kind: n.kind, platform: t.platform, error: error as Error });
        }
      }
    }
  } catch (error) {
    logger.error('push delivery failed', { error: error as Error });
  }
}
