import type { Fields } from '../db/entity.ts';
import { newSortableId } from '../db/ids.ts';
import { ANON_ATTRIBUTE, notificationsPrefix, unreadNotificationsIndex } from '../db/keys.ts';
import { getItem, isConditionFailure, queryAll, queryPage, type TransactItem, transact, write } from '../db/table.ts';
import { notFound } from '../errors.ts';
import { unseal } from '../grievances/anonymity.ts';
import { getUsers } from '../people/users.ts';
import { deliverPush } from '../push/delivery.ts';
import {
  Notification,
  NotificationCounter,
  type NotificationCounterItem,
  type NotificationItem,
  NotificationReadAll,
} from './entities.ts';
import type { NotificationKind } from './kinds.ts';

export interface NewNotification {
  recipientId: string;
  kind: NotificationKind;
  /** Null when naming the actor would reveal something (grievances) or there is none. */
  actorId: string | null;
  postId?: string | null;
  commentId?: string | null;
  preview: string;
  /**
   * Grievance notifications: marked so the change feed never sees them and
   * carrying nothing that names the grievance.
   */
  anonymous?: boolean;
  /**
   * Store the preview encrypted with this seal (the grievance area's `seal`: a plain preview would tie
   * the recipient to a grievance in a table export); it is decrypted when listed. Passed in rather
   * than imported, so only the functions that send grievance notifications hold the grievance secret.
   */
  sealPreview?: (text: string, context: string) => string;
}

const PREVIEW_MAX = 280;
export const previewOf = (text: string) => (text.length > PREVIEW_MAX ? `${text.slice(0, PREVIEW_MAX - 1)}…` : text);
const sealContext = (recipientId: string, id: string) => `notification-preview:${recipientId}:${id}`;
const previewText = (n: NotificationItem) =>
  n.sealedPreview ? (unseal(n.sealedPreview, sealContext(n.recipientId, n.id)) ?? '') : n.preview;

/**
 * The writes that record one notification: the item (in the recipient's unread index) and the unread
 * counter, for callers to put in the same transaction as the change that caused it.
 */
export function notificationWrites(n: NewNotification, at = new Date()): { id: string; items: TransactItem[] } {
  const id = newSortableId(at);
  const item: Fields<NotificationItem> = {
    id,
    recipientId: n.recipientId,
    kind: n.kind,
    actorId: n.actorId,
    postId: n.postId ?? null,
    commentId: n.commentId ?? null,
    preview: n.sealPreview ? '' : previewOf(n.preview),
    ...(n.sealPreview ? { sealedPreview: n.sealPreview(previewOf(n.preview), sealContext(n.recipientId, id)) } : {}),
    readAt: null,
    createdAt: at.toISOString(),
    ...(n.anonymous ? { [ANON_ATTRIBUTE]: true as const } : {}),
  };
  return { id, items: [Notification.put(item), NotificationCounter.add([n.recipientId], { unread: 1 })] };
}

/**
 * Records notifications (each in its own transaction with its counter), then pushes the push kinds to
 * people with push enabled. Nobody is notified of their own action. Callers that put
 * `notificationWrites` in their own transaction call `deliverPush` after it commits.
 */
export async function notify(list: NewNotification[]): Promise<string[]> {
  const ids: string[] = [];
  const recorded: NewNotification[] = [];
  for (const n of list) {
    if (n.actorId && n.actorId === n.recipientId) continue;
    const { id, items } = notificationWrites(n);
    await transact(items);
    ids.push(id);
    recorded.push(n);
  }
  await deliverPush(recorded);
  return ids;
}

export async function listNotifications(userId: string, limit: number) {
  const { pk, skPrefix } = notificationsPrefix(userId);
  const { items } = await queryPage<NotificationItem>({ pk, skPrefix, forward: false, limit });
  const actors = await getUsers(items.map((n) => n.actorId).filter((a): a is string => !!a));
  return items.map((n) => {
    const actor = n.actorId ? actors.get(n.actorId) : undefined;
    return {
      id: n.id,
      kind: n.kind,
      actor: actor ? { id: actor.id, name: actor.name, image: actor.image ?? null } : null,
      postId: n.postId ?? null,
      commentId: n.commentId ?? null,
      preview: previewText(n),
      readAt: n.readAt ?? null,
      createdAt: n.createdAt,
    };
  });
}

export async function unreadCount(userId: string): Promise<number> {
  const c = await getItem<NotificationCounterItem>(NotificationCounter.key(userId), true);
  return Math.max(0, c?.unread ?? 0);
}

/**
 * The writes that mark one unread notification read, conditional on it still being unread. Marks made
 * by "mark all" are stamped `readAll`: the change feed then emits one `notification.read` (null) for
 * the marker written after them instead of one event per notification.
 */
function markReadWrites(userId: string, id: string, at: string, all = false): TransactItem[] {
  return [
    Notification.update([userId, id], {
      UpdateExpression: `SET readAt = :at${all ? ', readAll = :all' : ''} REMOVE #upk, #usk`,
      ConditionExpression: 'attribute_exists(pk) AND readAt = :null',
      ExpressionAttributeNames: {
        '#upk': `${unreadNotificationsIndex.index}pk`,
        '#usk': `${unreadNotificationsIndex.index}sk`,
      },
      ExpressionAttributeValues: { ':at': at, ':null': null, ...(all ? { ':all': true } : {}) },
    }),
    NotificationCounter.add([userId], { unread: -1 }),
  ];
}

/**
 * Marks one notification read (idempotent; 404 when it is not the caller's), or every unread one.
 * Each mark moves the counter in the same transaction, so the count never drifts.
 * Answers the ids that changed (for `notification.read`).
 */
export async function markRead(userId: string, id: string | undefined): Promise<void> {
  const at = new Date().toISOString();
  if (id !== undefined) {
    const n = await getItem<NotificationItem>(Notification.key(userId, id), true);
    if (!n) throw notFound('No such notification.');
    if (n.readAt) return;
    await transact(markReadWrites(userId, id, at)).catch((e) =>
      isConditionFailure(e) ? undefined : Promise.reject(e),
    );
    return;
  }
  const unread = await queryAll<NotificationItem>({
    index: unreadNotificationsIndex.index,
    pk: unreadNotificationsIndex.pk(userId),
  });
  for (const n of unread) {
    await transact(markReadWrites(userId, n.id, at, true)).catch((e) =>
      isConditionFailure(e) ? undefined : Promise.reject(e),
    );
  }
  await write(NotificationReadAll.put({ userId, actorId: userId, readAt: at }));
}
