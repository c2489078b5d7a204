import type { UserItem } from '../people/users.ts';

export type PresenceValue = 'active' | 'away' | 'offline';

/**
 * A person's presence as shown on profiles and the directory. Until heartbeats exist (the live-updates
 * issue) nobody has been seen, and never-seen means offline (spec 2.2).
 */
export function presenceOf(user: Pick<UserItem, 'lastSeenAt'> & Record<string, unknown>, _now = new Date()): { presence: PresenceValue; lastSeenAt: string | null } {
  return { presence: 'offline', lastSeenAt: (user.lastSeenAt as string | null) ?? null };
}
