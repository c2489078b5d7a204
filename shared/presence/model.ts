/**
 * Presence: `active` after a heartbeat with `active: true` in the last 300 s
 * and any heartbeat in the last 180 s; `away` when connected (a heartbeat in the last 180 s) without
 * an active one in 300 s; else `offline`. A person's presence item keeps the two deadlines that
 * decide it, so presence is computed exactly at read time; `presence` holds the value last
 * announced (the change feed emits `presence.updated` when it changes), and gsi6 lists the item
 * under the time that value is next due to change, for the sweep.
 */
export type PresenceValue = 'active' | 'away' | 'offline';

export const ONLINE_MS = 180_000;
export const ACTIVE_MS = 300_000;

/** The deadlines of a person's presence, epoch milliseconds (0 = none). */
export interface PresenceState {
  /** Latest heartbeat of a live connection + 180 s. */
  onlineUntil: number;
  /** Latest active heartbeat of a live connection + 300 s. */
  activeUntil: number;
  /** The latest heartbeat of any kind (spec: lastSeenAt). */
  lastSeenAt: string | null;
}

export function presenceAt(s: Pick<PresenceState, 'onlineUntil' | 'activeUntil'>, now: number): PresenceValue {
  if (s.onlineUntil <= now) return 'offline';
  return s.activeUntil > now ? 'active' : 'away';
}

/** When the presence computed from these deadlines changes next (null once offline). */
export function nextChangeAt(s: Pick<PresenceState, 'onlineUntil' | 'activeUntil'>, now: number): number | null {
  if (s.onlineUntil <= now) return null;
  return s.activeUntil > now ? Math.min(s.activeUntil, s.onlineUntil) : s.onlineUntil;
}
