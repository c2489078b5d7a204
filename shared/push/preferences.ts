import { write } from '../db/table.ts';
import { NotificationPrefs } from './entities.ts';

/**
 * The push preference: `pushEnabled`, true for anyone who never chose. Off stops delivery
 * only; notifications are still recorded and registered tokens stay.
 */
export async function getPushEnabled(userId: string): Promise<boolean> {
  const item = await NotificationPrefs.get({ userId }, { consistent: true });
  return item?.pushEnabled ?? true;
}

export async function setPushEnabled(userId: string, pushEnabled: boolean): Promise<void> {
  await write(NotificationPrefs.put({ userId, pushEnabled, actorId: userId, updatedAt: new Date().toISOString() }));
}

/** Whether each of these people wants push (one BatchGet). */
export async function pushEnabledFor(userIds: string[]): Promise<Map<string, boolean>> {
  const unique = [...new Set(userIds)];
  const found = await NotificationPrefs.getMany(unique.map((userId) => ({ userId })));
  return new Map(unique.map((id, i) => [id, found[i]?.pushEnabled ?? true]));
}
