import { type ChangeMapper, changeType } from '../live/change-events.ts';
import { NOTIFICATION_KINDS } from '../push/notification-kinds.ts';
import * as z from '../util/zod.ts';
import { Notification } from './entities.ts';
import { notificationContent } from './notifications.ts';

/** Every kind but the grievance channel's, whose notifications are never announced on the stream. */
const AnnouncedKind = z.enum(NOTIFICATION_KINDS.filter((kind) => kind !== 'grievance'));

export const notificationCreated = changeType(
  'notification.created',
  'user',
  'A notification was recorded for you (or revised in place).',
  z.object({ notificationId: z.string(), kind: AnnouncedKind }),
);
export const notificationRead = changeType(
  'notification.read',
  'user',
  'You marked a notification read, or all of them (id null).',
  z.object({ notificationId: z.described(z.nullable(z.string()), 'Null: every notification was marked read.') }),
);

/** The notifications area's change types (collected by `shared/registry/change-types.ts`). */
export const notificationChangeTypes = [notificationCreated, notificationRead];

/**
 * Notifications on the live-update stream, to the recipient only:
 * - `notification.created` { notificationId, kind } for every recorded notification but grievance
 *   ones. Every notification reaches the consumer in one form (its content sealed; nothing the
 *   stream's filter could tell a grievance one by, so nothing that marks one at rest), so that is
 *   decided here, after opening it: a grievance notification (anonymous, or of kind `grievance`), or
 *   one whose seal does not open, emits nothing, read or not. actorId is the person who caused it, or the recipient when nobody did (a
 *   poll closing on time). Again when a notification is revised in place (`revisedAt` moves: the day's
 *   birthday notification naming a birthday person who appeared later that day);
 * - `notification.read` { notificationId } when one notification is marked read. Marking every
 *   notification read stamps the items `readAll` (no event each) and writes one marker item, whose
 *   mapper below emits a single `notification.read` { notificationId: null }.
 */
export const notificationChanges: ChangeMapper = (change) => {
  const n = change.newImage;
  if (!Notification.is(n)) return [];
  const c = notificationContent(n);
  if (!c || c.anonymous || c.kind === 'grievance') return [];
  // A notification revised in place (a day's birthday notification naming one more person) is news again.
  const revised = change.eventName === 'MODIFY' && !!n.revisedAt && n.revisedAt !== change.oldImage?.revisedAt;
  if (change.eventName === 'INSERT' || revised) {
    return [
      notificationCreated.event(c.actorId ?? n.recipientId, { notificationId: n.id, kind: c.kind }, n.recipientId),
    ];
  }
  if (change.eventName === 'MODIFY' && !change.oldImage?.readAt && n.readAt && !n.readAll) {
    return [notificationRead.event(n.recipientId, { notificationId: n.id }, n.recipientId)];
  }
  return [];
};

/** The mark-all marker (`notificationsReadAllKey`): one `notification.read` with a null id. */
export const notificationsReadAllChanges: ChangeMapper = (change) => {
  const m = change.newImage;
  if (!m || change.oldImage?.readAt === m.readAt) return [];
  return [notificationRead.event(m.userId, { notificationId: null }, m.userId)];
};
