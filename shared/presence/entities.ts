import { type EntityFields, type EntityItem, entity, keyOnly, shape } from '../db/entity.ts';
import { nextChangeAt, type PresenceState, type PresenceValue, presenceAt } from './model.ts';

/** The presence area's entities (docs/data-model.md, Live updates: presence), each declared once. */

type PresenceFields = PresenceState & {
  userId: string;
  actorId: string;
  presence: PresenceValue;
  /** Optimistic-concurrency counter: every write is conditioned on the version it read. */
  version: number;
  updatedAt: string;
};

/** When an item's announced value is next due to change: from its deadlines, as of its own write. */
const dueOf = (p: Pick<PresenceFields, 'onlineUntil' | 'activeUntil' | 'updatedAt'>) =>
  nextChangeAt(p, Date.parse(p.updatedAt));

/** A person's presence; in the due index (gsi6, sparse, sort key the due time in epoch ms) while it is not offline, for the sweep. */
export const Presence = entity({
  name: 'Presence',
  fields: shape<PresenceFields>(),
  key: { pk: ['USER', 'userId'], sk: ['PRESENCE'] },
  indexes: {
    due: { index: 'gsi6', pk: ['PRESENCE_DUE'], sk: [(p) => dueOf(p) ?? undefined], when: (p) => dueOf(p) !== null },
  },
});
export type PresenceItem = EntityItem<typeof Presence>;

/** The fields for this state at `now`: the announced value (and so, while not offline, its place in the due index). */
export function presenceFields(
  userId: string,
  s: PresenceState,
  version: number,
  now: number,
): EntityFields<typeof Presence> {
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
 * The connection id is its key only.
 */
export const PresenceConnection = entity({
  name: 'PresenceConnection',
  fields: shape<{ userId: string; sessionId: string; lastHeartbeatAt: number; lastActiveAt?: number; ttl: number }>(),
  keyOnly: keyOnly<{ connectionId: string }>('connectionId'),
  key: { pk: ['PRESENCE', 'userId'], sk: ['CONN', 'connectionId'] },
  inPlace: true,
});
export type PresenceConnectionItem = EntityItem<typeof PresenceConnection>;
