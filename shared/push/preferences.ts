import { getItem, getMany, write } from '../db/table.ts';
import { NotificationPrefs, type NotificationPrefsItem } from './entities.ts';

/**
 * The push preference: `pushEnabled`, true for anyone who never chose. Off stops delivery
 * only; notifications are still recorded and registered tokens stay.
 */
export async function getPushEnabled(userId: string): Promise<boolean> {
  const item = await getItem<NotificationPrefsItem>(NotificationPrefs.key(userId), true);
  return item?.pushEnabled ?? true;
}

export async function setPushEnabled(userId: string, pushEnabled: boolean): Promise<void> {
  await write(NotificationPrefs.put({ userId, pushEnabled, actorId: userId, updatedAt: new Date().toISOString() }));
}

/** Whether each of these people wants push (one BatchGet). */
export async function pushEnabledFor(userIds: string[]): Promise<Map<string, boolean>> {
  const unique = [...new Set(userIds)];
  const found = await getMany<NotificationPrefsItem>(unique.map(NotificationPrefs.key));
  const byUser = new Map([...found.values()].map((p) => [p.userId, p.pushEnabled ?? true]));
  return new Map(unique.map((id) => [id, byUser.get(id) ?? true]));
}
