import { type ChangeMapper, onlyUser } from '../live/change-events.ts';
import { Notification } from './entities.ts';
import { notificationContent } from './notifications.ts';

/**
 * Notifications on the live-update stream, to the recipient only:
 * - `notification.created` { notificationId, kind } for every recorded notification but grievance
 *   ones. Every notification reaches the consumer in one form (its content sealed; nothing the
 *   stream's filter could tell a grievance one by, so nothing that marks one at rest), so that is
 *   decided here, after opening it: a grievance notification, or one whose seal does not open, emits
 *   nothing, read or not. actorId is the person who caused it, or the recipient when nobody did (a
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
  if (!c || c.anonymous) return [];
  const audience = onlyUser(n.recipientId);
  // A notification revised in place (a day's birthday notification naming one more person) is news again.
  const revised = change.eventName === 'MODIFY' && !!n.revisedAt && n.revisedAt !== change.oldImage?.revisedAt;
  if (change.eventName === 'INSERT' || revised) {
    return [
      {
        type: 'notification.created',
        actorId: c.actorId ?? n.recipientId,
        payload: { notificationId: n.id, kind: c.kind },
        audience,
      },
    ];
  }
  if (change.eventName === 'MODIFY' && !change.oldImage?.readAt && n.readAt && !n.readAll) {
    return [{ type: 'notification.read', actorId: n.recipientId, payload: { notificationId: n.id }, audience }];
  }
  return [];
};

/** The mark-all marker (`notificationsReadAllKey`): one `notification.read` with a null id. */
export const notificationsReadAllChanges: ChangeMapper = (change) => {
  const m = change.newImage;
  if (!m || change.oldImage?.readAt === m.readAt) return [];
  return [
    { type: 'notification.read', actorId: m.userId, payload: { notificationId: null }, audience: onlyUser(m.userId) },
  ];
};
