import { entity } from '../db/entity.ts';
import { notificationPrefsKey, pushTokenKey, pushTokensIndex } from '../db/keys.ts';
import type { PushPlatform } from '../transports/push.ts';

/** The push area's entities (docs/data-model.md, Live updates: push), each declared once. */

export interface PushTokenItem {
  pk: string;
  sk: string;
  entity: 'PushToken';
  tokenHash: string;
  userId: string;
  platform: PushPlatform;
  userAgent: string | null;
  endpointArn: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * The key (token hash) of the session that registered it: push goes to the registration only while
   * that session is live and its person active (delivery.ts). Registrations written before this was
   * recorded lack it; delivery removes them.
   */
  sessionTokenHash?: string;
  /** Set when the platform reported the endpoint dead; the item then leaves the delivery index. */
  disabledAt?: string;
  actorId: string;
}

/** A registration; in its person's delivery index (gsi1, sparse) until the platform reports it dead. */
export const PushToken = entity<PushTokenItem, [tokenHash: string]>({
  name: 'PushToken',
  key: pushTokenKey,
  keyOf: (t) => [t.tokenHash],
  indexes: [
    {
      index: pushTokensIndex.index,
      pk: (t) => (t.disabledAt ? undefined : pushTokensIndex.pk(t.userId)),
      sk: (t) => (t.disabledAt ? undefined : pushTokensIndex.sk(t.updatedAt, t.tokenHash)),
    },
  ],
});

/** A person's push preference (shared/push/preferences.ts); absent = push on. */
export interface NotificationPrefsItem {
  pk: string;
  sk: string;
  entity: 'NotificationPrefs';
  userId: string;
  pushEnabled?: boolean;
  actorId: string;
  updatedAt: string;
}
export const NotificationPrefs = entity<NotificationPrefsItem, [userId: string]>({
  name: 'NotificationPrefs',
  key: notificationPrefsKey,
  keyOf: (p) => [p.userId],
});
