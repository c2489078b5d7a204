import { newSortableId } from '../db/ids.ts';
import { page } from '../db/paging.ts';
import { isConditionFailure, type TransactItem, transact, write } from '../db/table.ts';
import { notFound } from '../errors.ts';
import { getUsers } from '../people/users.ts';
import { deliverPush } from '../push/delivery.ts';
import {
  type NameSpan,
  Notification,
  type NotificationContent,
  NotificationCounter,
  type NotificationFields,
  type NotificationItem,
  NotificationReadAll,
} from './entities.ts';
import type { NotificationKind } from './kinds.ts';
import { sealNotification, unsealNotification } from './sealing.ts';

export interface NewNotification {
  recipientId: string;
  kind: NotificationKind;
  /** Null when naming the actor would reveal something (grievances) or there is none. */
  actorId: string | null;
  postId?: string | null;
  commentId?: string | null;
  preview: string;
  /** Where `preview` holds people's names the service put there (NotificationContent.names). */
  names?: NameSpan[];
  /** Grievance notifications: never published on the change feed, which learns it only by unsealing. */
  anonymous?: boolean;
}

const PREVIEW_MAX = 280;
export const previewOf = (text: string) => (text.length > PREVIEW_MAX ? `${text.slice(0, PREVIEW_MAX - 1)}…` : text);

/** The name spans that remain (clipped) in a preview cut by previewOf. */
const spansWithin = (names: NameSpan[] | undefined, text: string): NameSpan[] => {
  const end = text.length > PREVIEW_MAX ? PREVIEW_MAX - 1 : text.length;
  return (names ?? []).flatMap((n) => (n.at >= end ? [] : [{ ...n, length: Math.min(n.length, end - n.at) }]));
};
const sealContext = (recipientId: string, id: string) => `notification:${recipientId}:${id}`;

/** A notification's content sealed for its item. */
export const sealedContent = (recipientId: string, id: string, c: NotificationContent) =>
  sealNotification(JSON.stringify(c), sealContext(recipientId, id));

/**
 * What a stored notification says: opened from its seal, or read from the clear attributes of the
 * earlier form. An earlier grievance notification's preview was sealed under the grievance key,
 * which the readers of notifications do not hold: it reads as empty until its migration reseals it.
 * Null when the seal does not open (another key).
 */
export function notificationContent(n: NotificationItem): NotificationContent | null {
  if (n.sealed !== undefined) {
    const text = unsealNotification(n.sealed, sealContext(n.recipientId, n.id));
    return text === null ? null : (JSON.parse(text) as NotificationContent);
  }
  return {
    kind: n.kind as NotificationKind,
    actorId: n.actorId ?? null,
    postId: n.postId ?? null,
    commentId: n.commentId ?? null,
    preview: n.sealedPreview ? '' : (n.preview ?? ''),
    ...(n.anon ? { anonymous: true as const } : {}),
  };
}

/** The condition of every new notification's counter write: its recipient's erasure has not started. */
export const OPEN = 'attribute_not_exists(closed)';

/**
 * The writes that record one notification: the item (in the recipient's unread index) and the unread
 * counter, for callers to put in the same transaction as the change that caused it.
 */
export function notificationWrites(
  n: NewNotification,
  at = new Date(),
  id = newSortableId(at),
): { id: string; items: TransactItem[] } {
  return {
    id,
    items: [
      Notification.put(notificationItem(n, at, id)),
      // Not to a person whose erasure started (NotificationCounter.closed): the transaction fails instead.
      NotificationCounter.add({ userId: n.recipientId }, { unread: 1 }, { condition: OPEN }),
    ],
  };
}

/** The stored notification: the same attributes whatever its kind, its content sealed. */
export function notificationItem(n: NewNotification, at: Date, id: string): NotificationFields {
  const content: NotificationContent = {
    kind: n.kind,
    actorId: n.actorId,
    postId: n.postId ?? null,
    commentId: n.commentId ?? null,
    preview: previewOf(n.preview),
    ...(n.names?.length && spansWithin(n.names, n.preview).length ? { names: spansWithin(n.names, n.preview) } : {}),
    ...(n.anonymous ? { anonymous: true as const } : {}),
  };
  return {
    id,
    recipientId: n.recipientId,
    sealed: sealedContent(n.recipientId, id, content),
    readAt: null,
    createdAt: at.toISOString(),
  };
}

/**
 * Records notifications (each in its own transaction with its counter), then pushes the push kinds to
 * people with push enabled. Nobody is notified of their own action, nor anybody whose erasure started. Callers that put
 * `notificationWrites` in their own transaction call `deliverPush` after it commits.
 */
export async function notify(list: NewNotification[]): Promise<string[]> {
  const ids: string[] = [];
  const recorded: NewNotification[] = [];
  for (const n of list) {
    if (n.actorId && n.actorId === n.recipientId) continue;
    const { id, items } = notificationWrites(n);
    try {
      await transact(items);
    } catch (err) {
      // The recipient's erasure started (their counter is closed): the notification is dropped.
      if (isConditionFailure(err)) continue;
      throw err;
    }
    ids.push(id);
    recorded.push(n);
  }
  await deliverPush(recorded);
  return ids;
}

export async function listNotifications(userId: string, limit: number) {
  const { items } = await Notification.query({ key: { recipientId: userId }, forward: false }, page({ limit }));
  const opened = items.flatMap((n) => {
    const c = notificationContent(n);
    return c ? [{ n, c }] : []; // a seal that does not open (another key) is nobody's to read
  });
  const actors = await getUsers(opened.map(({ c }) => c.actorId).filter((a): a is string => !!a));
  return opened.map(({ n, c }) => {
    const actor = c.actorId ? actors.get(c.actorId) : undefined;
    return {
      id: n.id,
      kind: c.kind,
      actor: actor ? { id: actor.id, name: actor.name, image: actor.image ?? null } : null,
      postId: c.postId ?? null,
      commentId: c.commentId ?? null,
      preview: c.preview,
      readAt: n.readAt ?? null,
      createdAt: n.createdAt,
    };
  });
}

export async function unreadCount(userId: string): Promise<number> {
  const c = await NotificationCounter.get({ userId }, { consistent: true });
  return Math.max(0, c?.unread ?? 0);
}

/**
 * The writes that mark one unread notification read (it leaves the unread index), conditional on it
 * still being unread. Marks made by "mark all" are stamped `readAll`: the change feed then emits one
 * `notification.read` (null) for the marker written after them instead of one event per notification.
 */
function markReadWrites(n: NotificationItem, at: string, all = false): TransactItem[] {
  return [
    Notification.change(
      n,
      { ...n, readAt: at, ...(all ? { readAll: true as const } : {}) },
      {
        ConditionExpression: 'attribute_exists(pk) AND readAt = :null',
        ExpressionAttributeValues: { ':null': null },
      },
    ),
    NotificationCounter.add({ userId: n.recipientId }, { unread: -1 }),
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
    const n = await Notification.get({ recipientId: userId, id }, { consistent: true });
    if (!n) throw notFound('No such notification.');
    if (n.readAt) return;
    await transact(markReadWrites(n, at)).catch((e) => (isConditionFailure(e) ? undefined : Promise.reject(e)));
    return;
  }
  const unread = await Notification.queryAll({ index: 'unread', key: { recipientId: userId } });
  for (const n of unread) {
    await transact(markReadWrites(n, at, true)).catch((e) => (isConditionFailure(e) ? undefined : Promise.reject(e)));
  }
  await write(NotificationReadAll.put({ userId, actorId: userId, readAt: at }));
}
