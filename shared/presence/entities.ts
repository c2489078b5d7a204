import { entity, type Fields } from '../db/entity.ts';
import { presenceConnectionKey, presenceDueIndex, presenceKey } from '../db/keys.ts';
import { nextChangeAt, type PresenceState, type PresenceValue, presenceAt } from './model.ts';

/** The presence area's entities (docs/data-model.md, Live updates: presence), each declared once. */

export interface PresenceItem extends PresenceState {
  pk: string;
  sk: string;
  entity: 'Presence';
  userId: string;
  actorId: string;
  presence: PresenceValue;
  /** Optimistic-concurrency counter: every write is conditioned on the version it read. */
  version: number;
  updatedAt: string;
}

/** When an item's announced value is next due to change: from its deadlines, as of its own write. */
const dueOf = (p: Pick<PresenceItem, 'onlineUntil' | 'activeUntil' | 'updatedAt'>) =>
  nextChangeAt(p, Date.parse(p.updatedAt));

/** A person's presence; in the due index (gsi6, sparse) while it is not offline, for the sweep. */
export const Presence = entity<PresenceItem, [userId: string]>({
  name: 'Presence',
  key: presenceKey,
  keyOf: (p) => [p.userId],
  indexes: [
    {
      index: presenceDueIndex.index,
      pk: (p) => (dueOf(p) === null ? undefined : presenceDueIndex.pk),
      sk: (p) => {
        const due = dueOf(p);
        return due === null ? undefined : presenceDueIndex.sk(due);
      },
    },
  ],
});

/** The fields for this state at `now`: the announced value (and so, while not offline, its place in the due index). */
export function presenceFields(userId: string, s: PresenceState, version: number, now: number): Fields<PresenceItem> {
  return {
    userId,
    actorId: userId,
    presence: presenceAt(s, now),
    onlineUntil: s.onlineUntil,
    activeUntil: s.activeUntil,
    lastSeenAt: s.lastSeenAt,
    version,
    updatedAt: new Date(now).toISOString(),
  };
}

/**
 * One client connection's heartbeats (shared/presence/heartbeats.ts), written in place by each
 * heartbeat; it outlives its last heartbeat by a day, then TTL removes it (reads ignore stale ones).
 */
export interface PresenceConnectionItem {
  pk: string;
  sk: string;
  entity: 'PresenceConnection';
  userId: string;
  sessionId: string;
  lastHeartbeatAt: number;
  lastActiveAt?: number;
  ttl: number;
}
export const PresenceConnection = entity<PresenceConnectionItem, [userId: string, connectionId: string]>({
  name: 'PresenceConnection',
  key: presenceConnectionKey,
});
