import { PUSH_KINDS } from '../notifications/kinds.ts';
import { logger } from '../observability/logger.ts';
import { getUsers } from '../people/users.ts';
import { pushTransport } from '../transports/push.ts';
import { type PushableNotification, pushMessageFor } from './message.ts';
import { pushEnabledFor } from './preferences.ts';
import { activePushTokens, disablePushToken, targetOf } from './tokens.ts';

export type { PushableNotification } from './message.ts';

/**
 * Pushes recorded notifications (call it after they are committed): the push kinds only, to people
 * with push enabled, on each of their enabled registrations. A dead endpoint disables its token, so it
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
      Promise.all(recipients.map(async (id) => [id, await activePushTokens(id)] as const)).then((e) => new Map(e)),
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
