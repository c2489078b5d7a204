import { type ChangeMapper, everyone } from '../live/change-events.ts';

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
  return [{ type: 'presence.updated', actorId: userId, payload: { userId, presence: after }, audience: everyone }];
};
