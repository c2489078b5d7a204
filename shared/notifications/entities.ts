import { type EntityFields, type EntityItem, entity, keyOnly, shape } from '../db/entity.ts';
import type { NotificationKind } from '../push/notification-kinds.ts';

/** The notifications area's entities (docs/data-model.md, Notifications), each declared once. */

/** What a notification says, sealed at rest (`sealed`, sealing.ts). */
export interface NotificationContent {
  kind: NotificationKind;
  actorId: string | null;
  postId: string | null;
  commentId: string | null;
  preview: string;
  /**
   * Where the preview holds a person's display name that the service put there (a rendered mention, the
   * actor's name in a template): by whom, and at which characters. An erasure replaces exactly these
   * spans (shared/data-rights/erasure.ts) and never another word of the preview. Absent on content
   * written before this release.
   */
  names?: NameSpan[];
  /** Caused by a grievance: never published on the change feed (decided after unsealing). */
  anonymous?: true;
}

/** A person's display name in a preview: `preview.slice(at, at + length)`, the name of `id`. */
export interface NameSpan {
  id: string;
  at: number;
  length: number;
}

/**
 * A notification, in its recipient's partition, newest last in sort order (ids are time-sortable); in
 * the recipient's unread index (gsi2, sparse) until it is read. One form at rest for every kind: the
 * recipient, times and read state in the clear (they key and page the list), everything else in
 * `sealed`. The optional fields are the form of 0.2.0 and earlier (kind, actor, references and preview
 * in the clear; grievance previews in `sealedPreview` under the grievance key; `anon` on grievance
 * notifications), read until `0005-notifications-sealed` has brought every item to this form.
 */
export const Notification = entity({
  name: 'Notification',
  fields: shape<{
    id: string;
    recipientId: string;
    /** The content (NotificationContent), sealed for this notification. */
    sealed: string;
    readAt: string | null;
    createdAt: string;
    /** Marked read by "mark all" (0.3.0 and earlier): the change feed emits one event for the marker instead. */
    readAll?: true;
    /**
     * Recorded after the mark-all of this time (the recipient's `NotificationCounter.readUpTo`) although
     * dated at or before it (a notice delivered late, a writer's clock behind): counted unread, so it
     * reads unread until a later mark. Absent on every other notification.
     */
    afterMark?: string;
    /**
     * When the notification was last revised in place (a day's `birthday` notification naming a birthday
     * person who appeared later that day): it reads unread again and the change feed emits
     * `notification.created` for it again. Absent on every other notification.
     */
    revisedAt?: string;
    kind?: NotificationKind;
    actorId?: string | null;
    postId?: string | null;
    commentId?: string | null;
    preview?: string;
    sealedPreview?: string;
    anon?: true;
  }>(),
  key: { pk: ['NOTIF', 'recipientId'], sk: ['N', 'id'] },
  indexes: {
    /** The recipient's unread notifications. */
    unread: { index: 'gsi2', pk: ['UNREAD', 'recipientId'], sk: ['id'], when: (n) => n.readAt === null },
  },
  legacy: ['sealed'],
});
export type NotificationItem = EntityItem<typeof Notification>;
export type NotificationFields = EntityFields<typeof Notification>;

/**
 * A person's unread count (by their id, which it does not store), moved with ADD in the transaction of
 * every change of read state. `readUpTo` is the read-up-to mark of the person's last "mark all": every
 * notification dated at or before it reads as read (`readAt` = `readAllAt`, the time of that mark,
 * unless read earlier), except one recorded after it (`Notification.afterMark`). "Mark all" writes the
 * mark with `unread` = 0 in one update; every new notification's counter write is conditioned on the
 * mark being older than its date, or on being stamped `afterMark` with it (notifications.ts). `closed` (an erasure's id) is set when the person's erasure starts, in
 * the same transaction as their profile's mark: every new notification's counter write is conditioned
 * on its absence, so no notification to them is recorded from then on (the door of issue 33, at no
 * extra item per notification). The erasure deletes the counter when it ends.
 */
export const NotificationCounter = entity({
  name: 'NotificationCounter',
  fields: shape<{ unread: number; closed?: string; readUpTo?: string; readAllAt?: string }>(),
  keyOnly: keyOnly<{ userId: string }>('userId'),
  key: { pk: ['NOTIF', 'userId'], sk: ['COUNT'] },
  inPlace: true,
});
export type NotificationCounterItem = EntityItem<typeof NotificationCounter>;

/** The "every notification read" marker: rewritten by each mark-all, so the feed emits one event. */
export const NotificationReadAll = entity({
  name: 'NotificationReadAll',
  fields: shape<{ userId: string; actorId: string; readAt: string }>(),
  key: { pk: ['NOTIF', 'userId'], sk: ['READ_ALL'] },
});
