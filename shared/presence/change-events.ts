import { type ChangeMapper, changeType } from '../live/change-events.ts';
import * as z from '../util/zod.ts';

export const presenceUpdated = changeType(
  'presence.updated',
  'everyone',
  "A person's presence changed; it carries the new value (apply it directly).",
  z.object({ userId: z.string(), presence: z.enum(['active', 'away', 'offline']) }),
);

/** The presence area's change types (collected by `shared/registry/change-types.ts`). */
export const presenceChangeTypes = [presenceUpdated];

/**
 * `presence.updated` { userId, presence } to everyone when a person's announced presence changes:
 * heartbeats, closing connections, signing out and the sweep's timeouts all write the presence item,
 * and only a changed value is an event (it carries the new value).
 */
export const presenceChanges: ChangeMapper = (change) => {
  const before = change.oldImage?.presence ?? 'offline';
  const after = change.newImage?.presence ?? 'offline';
  if (before === after) return [];
  const userId = (change.newImage?.userId ?? change.oldImage?.userId) as string;
  return [presenceUpdated.event(userId, { userId, presence: after })];
};
