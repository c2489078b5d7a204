import { newSortableId } from '../db/ids.ts';
import { page } from '../db/paging.ts';
import { failedConditions, isConditionFailure, retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { notFound } from '../errors.ts';
import { getUsers } from '../people/users.ts';
import { deliverPush } from '../push/delivery.ts';
import type { NotificationKind } from '../push/notification-kinds.ts';
import {
  type NameSpan,
  Notification,
  type NotificationContent,
  NotificationCounter,
  type NotificationCounterItem,
  type NotificationFields,
  type NotificationItem,
  NotificationReadAll,
} from './entities.ts';
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

/**
 * The counter write of one new notification dated `at`: +1 unread, conditioned on the recipient's
 * erasure not having started (`closed`) and on their read-up-to mark (NotificationCounter.readUpTo)
 * being older than `at`, or being `mark`, the mark the notification is stamped `afterMark` with. So a
 * notification dated at or before a mark is counted only when it also reads unread, and "mark all"
 * never resets a count the list does not honour. When the condition fails, `laterMark` tells the
 * writer what to do.
 */
export function counterWrite(recipientId: string, at: string, mark?: string): TransactItem {
  return NotificationCounter.update(
    { userId: recipientId },
    {
      UpdateExpression: 'ADD #unread :one SET #entity = :entity',
      ConditionExpression: `attribute_not_exists(closed) AND (attribute_not_exists(readUpTo) OR readUpTo < :at${mark ? ' OR readUpTo = :mark' : ''})`,
      ExpressionAttributeNames: { '#unread': 'unread', '#entity': 'entity' },
      ExpressionAttributeValues: {
        ':one': 1,
        ':entity': NotificationCounter.name,
        ':at': at,
        ...(mark ? { ':mark': mark } : {}),
      },
    },
  );
}

/**
 * After a notification's counter write failed its condition: the recipient's current mark, with
 * which to stamp the notification `afterMark` and write it again, or null when it is to be dropped
 * (their erasure started, or the failure was not the mark's).
 */
export async function laterMark(recipientId: string, at: Date, tried?: string): Promise<string | null> {
  const c = await NotificationCounter.get({ userId: recipientId }, { consistent: true });
  if (!c || c.closed !== undefined || c.readUpTo === undefined) return null;
  return c.readUpTo >= at.toISOString() && c.readUpTo !== tried ? c.readUpTo : null;
}

/**
 * The writes that record one notification: the item (in the recipient's unread index) and the unread
 * counter, for callers to put in the same transaction as the change that caused it. `mark`: the
 * recipient's read-up-to mark the notification is recorded after (laterMark).
 */
export function notificationWrites(
  n: NewNotification,
  at = new Date(),
  id = newSortableId(at),
  mark?: string,
): { id: string; items: TransactItem[] } {
  return {
    id,
    items: [
      Notification.put(notificationItem(n, at, id, mark)),
      // Not to a person whose erasure started (NotificationCounter.closed): the transaction fails instead.
      counterWrite(n.recipientId, at.toISOString(), mark),
    ],
  };
}

/** The stored notification: the same attributes whatever its kind, its content sealed. */
export function notificationItem(n: NewNotification, at: Date, id: string, mark?: string): NotificationFields {
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
    ...(mark ? { afterMark: mark } : {}),
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
    const at = new Date();
    const id = newSortableId(at);
    let mark: string | undefined;
    for (;;) {
      try {
        await transact(notificationWrites(n, at, id, mark).items);
        ids.push(id);
        recorded.push(n);
        break;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        // A mark-all at or after its date: recorded after it (unread). Their erasure started: dropped.
        const later = await laterMark(n.recipientId, at, mark);
        if (later === null) break;
        mark = later;
      }
    }
  }
  await deliverPush(recorded);
  return ids;
}

/** The read state of a person's notifications: their last mark-all (NotificationCounter.readUpTo). */
export interface ReadMark {
  /** Every notification dated at or before it reads as read, unless recorded after it (`afterMark`). */
  upTo: string;
  /** When the mark was made: the `readAt` of the notifications it covers. */
  at: string;
}

export const markOf = (c: NotificationCounterItem | undefined): ReadMark | null =>
  c?.readUpTo ? { upTo: c.readUpTo, at: c.readAllAt ?? c.readUpTo } : null;

/** A person's read-up-to mark, read consistently (null when they never marked all read). */
export const readMarkOf = async (userId: string): Promise<ReadMark | null> =>
  markOf(await NotificationCounter.get({ userId }, { consistent: true }));

/** Whether the mark covers a stored unread notification (it then reads as read at the mark's time). */
export const coveredBy = (n: NotificationItem, mark: ReadMark | null): boolean =>
  mark !== null && n.readAt === null && n.createdAt <= mark.upTo && (n.afterMark ?? '') < mark.upTo;

/** A stored notification's read time: its own, else its mark's when the mark covers it. */
export const readTimeOf = (n: NotificationItem, mark: ReadMark | null): string | null =>
  n.readAt ?? (coveredBy(n, mark) ? mark!.at : null);

export async function listNotifications(userId: string, limit: number) {
  const [{ items }, counter] = await Promise.all([
    Notification.query({ key: { recipientId: userId }, forward: false }, page({ limit })),
    NotificationCounter.get({ userId }, { consistent: true }),
  ]);
  const mark = markOf(counter);
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
      readAt: readTimeOf(n, mark),
      createdAt: n.createdAt,
    };
  });
}

export async function unreadCount(userId: string): Promise<number> {
  const c = await NotificationCounter.get({ userId }, { consistent: true });
  return Math.max(0, c?.unread ?? 0);
}

/**
 * How far past its own clock a mark-all's mark reaches. A notification dated up to this much later
 * that is recorded after the mark fails its counter condition and is recorded `afterMark` (unread); one
 * recorded before it, by a writer whose clock runs ahead of the marker's, is covered. The list shows
 * the mark's own time (`readAllAt`) as the covered notifications' `readAt`.
 */
const MARK_REACH_MS = 1000;

/**
 * Marks one notification read (idempotent; 404 when it is not the caller's), or every one: "mark all"
 * is one update of the caller's counter (unread 0 and the read-up-to mark, NotificationCounter) with
 * the marker item whose change event is the one `notification.read` (null), whatever the number of
 * unread notifications. Marking one moves the counter in the same transaction, conditioned on the
 * mark it saw, so a notification a mark-all covers is never counted down twice.
 */
export async function markRead(userId: string, id: string | undefined): Promise<void> {
  if (id !== undefined) {
    await retryOnConflict(async () => {
      const [n, counter] = await Promise.all([
        Notification.get({ recipientId: userId, id }, { consistent: true }),
        NotificationCounter.get({ userId }, { consistent: true }),
      ]);
      if (!n) throw notFound('No such notification.');
      if (n.readAt || coveredBy(n, markOf(counter))) return;
      await transact(markReadWrites(n, new Date().toISOString(), counter?.readUpTo)).catch((e) =>
        // Read meanwhile (by another request): nothing to do. The mark moved: decided again.
        isConditionFailure(e) && failedConditions(e).every((i) => i === 0) ? undefined : Promise.reject(e),
      );
    });
    return;
  }
  await retryOnConflict(async () => {
    const now = new Date();
    const counter = await NotificationCounter.get({ userId }, { consistent: true });
    // Marks only move forward (another mark-all may have reached further on a clock ahead of this one).
    const reach = new Date(now.getTime() + MARK_REACH_MS).toISOString();
    const upTo = counter?.readUpTo && counter.readUpTo >= reach ? nextMs(counter.readUpTo) : reach;
    await transact([
      NotificationCounter.update(
        { userId },
        {
          UpdateExpression: 'SET #unread = :zero, #entity = :entity, readUpTo = :upTo, readAllAt = :at',
          ConditionExpression: counter?.readUpTo ? 'readUpTo = :seen' : 'attribute_not_exists(readUpTo)',
          ExpressionAttributeNames: { '#unread': 'unread', '#entity': 'entity' },
          ExpressionAttributeValues: {
            ':zero': 0,
            ':entity': NotificationCounter.name,
            ':upTo': upTo,
            ':at': now.toISOString(),
            ...(counter?.readUpTo ? { ':seen': counter.readUpTo } : {}),
          },
        },
      ),
      NotificationReadAll.put({ userId, actorId: userId, readAt: now.toISOString() }),
    ]);
  });
}

const nextMs = (iso: string) => new Date(Date.parse(iso) + 1).toISOString();

/**
 * The writes that mark one unread notification read (it leaves the unread index), conditional on it
 * still being unread, and on the counter's mark being the one the caller saw (`mark`): a mark-all in
 * between (which set the count to 0) makes the caller decide again.
 */
function markReadWrites(n: NotificationItem, at: string, mark: string | undefined): TransactItem[] {
  return [
    Notification.change(
      n,
      { ...n, readAt: at },
      {
        ConditionExpression: 'attribute_exists(pk) AND readAt = :null',
        ExpressionAttributeValues: { ':null': null },
      },
    ),
    NotificationCounter.update(
      { userId: n.recipientId },
      {
        UpdateExpression: 'ADD #unread :minus SET #entity = :entity',
        ConditionExpression: mark ? 'readUpTo = :mark' : 'attribute_not_exists(readUpTo)',
        ExpressionAttributeNames: { '#unread': 'unread', '#entity': 'entity' },
        ExpressionAttributeValues: {
          ':minus': -1,
          ':entity': NotificationCounter.name,
          ...(mark ? { ':mark': mark } : {}),
        },
      },
    ),
  ];
}
