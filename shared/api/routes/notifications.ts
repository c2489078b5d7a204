import {
  NotificationCounter,
  Notification as NotificationEntity,
  NotificationReadAll,
} from '../../notifications/entities.ts';
import { NOTIFICATION_KINDS } from '../../push/notification-kinds.ts';
import * as z from '../../util/zod.ts';
import { limitParam } from '../query.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { Count, isoDateTime, Mention, nullableIso } from '../schemas/common.ts';

export const NotificationKind = /* @__PURE__ */ declared(() => z.enum(NOTIFICATION_KINDS));

export const Notification = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      kind: NotificationKind,
      actor: z.nullable(Mention),
      postId: z.nullable(z.string()),
      commentId: z.nullable(z.string()),
      preview: z.string(),
      readAt: nullableIso(),
      createdAt: isoDateTime(),
    }),
    { id: 'Notification' },
  ),
);

const N = `${API_PREFIX}/notifications`;

export const listNotificationsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-notifications',
    area: 'notifications',
    method: 'GET',
    path: N,
    auth: 'session',
    summary: "The caller's notifications, newest first (a plain array capped by limit).",
    query: z.strictObject({ limit: limitParam() }),
    status: 200,
    response: z.array(Notification),
  }),
);

export const unreadNotificationCountRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-notification-unread-count',
    area: 'notifications',
    method: 'GET',
    path: `${N}/unread-count`,
    auth: 'session',
    summary: 'How many of the caller’s notifications are unread (a counter, not a count).',
    status: 200,
    response: Count,
  }),
);

export const readNotificationsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'read-notifications',
    area: 'notifications',
    method: 'POST',
    path: `${N}/read`,
    auth: 'session',
    summary: 'Marks one notification read, or every unread one when `id` is omitted.',
    body: z.strictObject({ id: z.optional(z.string().check(z.maxLength(200))) }),
    bodyOptional: true,
    status: 204,
    errors: [400, 404],
    access: { table: 'write', writes: [NotificationEntity, NotificationCounter, NotificationReadAll] },
  }),
);

export const notificationRoutes = [listNotificationsRoute, unreadNotificationCountRoute, readNotificationsRoute];
