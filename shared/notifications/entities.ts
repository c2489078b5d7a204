import { entity } from '../db/entity.ts';
import {
  notificationCounterKey,
  notificationKey,
  notificationsReadAllKey,
  unreadNotificationsIndex,
} from '../db/keys.ts';
import type { NotificationKind } from './kinds.ts';

/** The notifications area's entities (docs/data-model.md, Notifications), each declared once. */

/** What a notification says, sealed at rest (`sealed`, sealing.ts). */
export interface NotificationContent {
  kind: NotificationKind;
  actorId: string | null;
  postId: string | null;
  commentId: string | null;
  preview: string;
  /** Caused by a grievance: never published on the change feed (decided after unsealing). */
  anonymous?: true;
}

/**
 * One form at rest for every kind: the recipient, times and read state in the clear (they key and
 * page the list), everything else in `sealed`. The optional fields are the form of 0.2.0 and earlier
 * (kind, actor, references and preview in the clear; grievance previews in `sealedPreview` under the
 * grievance key; `anon` on grievance notifications), read until `0005-notifications-sealed` has
 * brought every item to this form.
 */
export interface NotificationItem {
  pk: string;
  sk: string;
  entity: 'Notification';
  id: string;
  recipientId: string;
  sealed?: string;
  readAt: string | null;
  createdAt: string;
  readAll?: true;
  kind?: NotificationKind;
  actorId?: string | null;
  postId?: string | null;
  commentId?: string | null;
  preview?: string;
  sealedPreview?: string;
  anon?: true;
}

/** A notification; in the recipient's unread index (sparse) until it is read. */
export const Notification = entity<NotificationItem, [recipientId: string, notificationId: string]>({
  name: 'Notification',
  key: notificationKey,
  keyOf: (n) => [n.recipientId, n.id],
  indexes: [
    {
      index: unreadNotificationsIndex.index,
      pk: (n) => (n.readAt === null ? unreadNotificationsIndex.pk(n.recipientId) : undefined),
      sk: (n) => (n.readAt === null ? unreadNotificationsIndex.sk(n.id) : undefined),
    },
  ],
});

/** A person's unread count, moved with ADD in the transaction of every change of read state. */
export interface NotificationCounterItem {
  pk: string;
  sk: string;
  entity: 'NotificationCounter';
  unread: number;
}
export const NotificationCounter = entity<NotificationCounterItem, [userId: string]>({
  name: 'NotificationCounter',
  key: notificationCounterKey,
});

/** The "every notification read" marker: rewritten by each mark-all, so the feed emits one event. */
export interface NotificationReadAllItem {
  pk: string;
  sk: string;
  entity: 'NotificationReadAll';
  userId: string;
  actorId: string;
  readAt: string;
}
export const NotificationReadAll = entity<NotificationReadAllItem, [userId: string]>({
  name: 'NotificationReadAll',
  key: notificationsReadAllKey,
  keyOf: (m) => [m.userId],
});
