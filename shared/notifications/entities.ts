import { entity } from '../db/entity.ts';
import {
  notificationCounterKey,
  notificationKey,
  notificationsReadAllKey,
  unreadNotificationsIndex,
} from '../db/keys.ts';
import type { NotificationKind } from './kinds.ts';

/** The notifications area's entities (docs/data-model.md, Notifications), each declared once. */

export interface NotificationItem {
  pk: string;
  sk: string;
  entity: 'Notification';
  id: string;
  recipientId: string;
  kind: NotificationKind;
  actorId: string | null;
  postId: string | null;
  commentId: string | null;
  preview: string;
  /** The preview, encrypted (`sealPreview`); `preview` is then empty. */
  sealedPreview?: string;
  readAt: string | null;
  createdAt: string;
  /** Caused by a grievance: kept out of the change feed (keys.ts, ANON_ATTRIBUTE). */
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
