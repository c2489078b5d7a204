import { ABSENT } from '../db/entity.ts';
import { retryOnConflict, write } from '../db/table.ts';
import {
  Presence,
  PresenceConnection,
  type PresenceConnectionItem,
  type PresenceItem,
  presenceFields,
} from './entities.ts';
import { ACTIVE_MS, ONLINE_MS, type PresenceState } from './model.ts';

/**
 * Heartbeats. Each client connection (a page load or app launch, `connectionId`) has an
 * item with its latest heartbeat and latest active heartbeat and the session it came from; the
 * person's presence item holds the deadlines derived from their live connections. Heartbeats raise
 * the deadlines; closing a connection or signing out recomputes them from the connections left, so a
 * person with none left is offline at once.
 */
/** The connection id a stored connection is keyed by (the item does not store it apart). */
const connectionIdOf = (c: Pick<PresenceConnectionItem, 'sk'>) =>
  c.sk.slice(PresenceConnection.key({ userId: '', connectionId: '' }).sk.length);

/** Connection items outlive their last heartbeat by a day, then TTL removes them (reads ignore stale ones). */
const CONNECTION_TTL_SECONDS = 24 * 3600;
const MAX_ATTEMPTS = 25;

/**
 * Writes the person's presence from the state `next` computes from the current item, conditioned on
 * the version read (concurrent heartbeats, closes and the sweep never lose each other's changes).
 * `next` answering null leaves the item alone.
 */
async function updatePresence(
  userId: string,
  next: (current: PresenceItem | undefined) => Promise<PresenceState | null>,
): Promise<void> {
  await retryOnConflict(
    async () => {
      const current = await Presence.get({ userId }, { consistent: true });
      const state = await next(current);
      if (!state) return;
      const fields = presenceFields(userId, state, (current?.version ?? 0) + 1, Date.now());
      await write(
        Presence.put(
          fields,
          current
            ? { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': current.version } }
            : ABSENT,
        ),
      );
    },
    { attempts: MAX_ATTEMPTS },
  );
}

export async function recordHeartbeat(
  userId: string,
  sessionId: string,
  connectionId: string,
  active: boolean,
): Promise<void> {
  const now = Date.now();
  await write(
    PresenceConnection.update(
      { userId, connectionId },
      {
        UpdateExpression: `SET entity = :e, userId = :u, sessionId = :s, lastHeartbeatAt = :now, #ttl = :ttl${active ? ', lastActiveAt = :now' : ''}`,
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':e': PresenceConnection.name,
          ':u': userId,
          ':s': sessionId,
          ':now': now,
          ':ttl': Math.floor(now / 1000) + CONNECTION_TTL_SECONDS,
        },
      },
    ),
  );
  await updatePresence(userId, async (current) => ({
    onlineUntil: Math.max(current?.onlineUntil ?? 0, now + ONLINE_MS),
    activeUntil: active ? Math.max(current?.activeUntil ?? 0, now + ACTIVE_MS) : (current?.activeUntil ?? 0),
    lastSeenAt: new Date(Math.max(now, Date.parse(current?.lastSeenAt ?? '') || 0)).toISOString(),
  }));
}

/** The deadlines of the connections still live (read strongly consistent, after the caller's deletes). */
async function stateFromConnections(userId: string, lastSeenAt: string | null): Promise<PresenceState> {
  const now = Date.now();
  const conns = await PresenceConnection.queryAll({ key: { userId }, consistent: true });
  const live = conns.filter((c) => c.lastHeartbeatAt + ONLINE_MS > now);
  const latest = (times: number[]) => (times.length ? Math.max(...times) : null);
  const heartbeat = latest(live.map((c) => c.lastHeartbeatAt));
  const activity = latest(live.flatMap((c) => (c.lastActiveAt ? [c.lastActiveAt] : [])));
  return {
    onlineUntil: heartbeat === null ? 0 : heartbeat + ONLINE_MS,
    activeUntil: activity === null ? 0 : activity + ACTIVE_MS,
    lastSeenAt,
  };
}

const recompute = (userId: string) =>
  updatePresence(userId, async (current) => (current ? stateFromConnections(userId, current.lastSeenAt) : null));

/** Closes one of the caller's connections (an unknown id changes nothing). */
export async function closeConnection(userId: string, connectionId: string): Promise<void> {
  await write(PresenceConnection.remove({ userId, connectionId }));
  await recompute(userId);
}

/** Closes every connection of the calling session (its tabs); other devices keep theirs. */
export async function signOutPresence(userId: string, sessionId: string): Promise<void> {
  const conns = await PresenceConnection.queryAll({ key: { userId }, consistent: true });
  for (const c of conns) {
    if (c.sessionId === sessionId) await write(PresenceConnection.remove({ userId, connectionId: connectionIdOf(c) }));
  }
  await recompute(userId);
}
