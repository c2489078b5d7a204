import { notificationPrefsKey } from '../db/keys.ts';
import { getItem, getMany, putItem } from '../db/table.ts';

/**
 * The push preference: `pushEnabled`, true for anyone who never chose. Off stops delivery
 * only; notifications are still recorded and registered tokens stay.
 */
interface PrefsItem {
  userId: string;
  pushEnabled?: boolean;
}

export async function getPushEnabled(userId: string): Promise<boolean> {
  const item = await getItem<PrefsItem>(notificationPrefsKey(userId), true);
  return item?.pushEnabled ?? true;
}

export async function setPushEnabled(userId: string, pushEnabled: boolean): Promise<void> {
  await putItem({
    ...notificationPrefsKey(userId),
    entity: 'NotificationPrefs',
    userId,
    pushEnabled,
    actorId: userId,
    updatedAt: new Date().toISOString(),
  });
}

/** Whether each of these people wants push (one BatchGet). */
export async function pushEnabledFor(userIds: string[]): Promise<Map<string, boolean>> {
  const unique = [...new Set(userIds)];
  const found = await getMany<PrefsItem>(unique.map(notificationPrefsKey));
  const byUser = new Map([...found.values()].map((p) => [p.userId, p.pushEnabled ?? true]));
  return new Map(unique.map((id) => [id, byUser.get(id) ?? true]));
}
