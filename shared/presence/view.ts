import { Presence } from './entities.ts';
import { type PresenceState, type PresenceValue, presenceAt } from './model.ts';

export type { PresenceValue } from './model.ts';

/** What profiles and directory entries show. */
export interface PresenceView {
  presence: PresenceValue;
  lastSeenAt: string | null;
}

const NEVER_SEEN: PresenceView = { presence: 'offline', lastSeenAt: null };

/**
 * A person's presence from their presence item (`Presence`), computed at `now` (so it is exact
 * whatever the sweep has announced yet). No item = never seen = offline.
 */
export function presenceOf(state: PresenceState | undefined, now = new Date()): PresenceView {
  if (!state) return NEVER_SEEN;
  return { presence: presenceAt(state, now.getTime()), lastSeenAt: state.lastSeenAt ?? null };
}

/**
 * Presence of many people in one BatchGet (100 keys a request): the path for profile and directory
 * pages. Every id asked for is in the answer.
 */
export async function presencesOf(userIds: Iterable<string>, now = new Date()): Promise<Map<string, PresenceView>> {
  const ids = [...new Set(userIds)];
  const items = await Presence.getMany(ids.map((userId) => ({ userId })));
  return new Map(ids.map((id, i) => [id, presenceOf(items[i], now)]));
}
