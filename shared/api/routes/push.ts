import { NotificationPrefs, PushToken } from '../../push/entities.ts';
import * as z from '../../util/zod.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { nonBlank } from '../schemas/common.ts';

export const PushPlatform = /* @__PURE__ */ declared(() => z.enum(['web', 'ios', 'android']));

export const NotificationPreferences = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ pushEnabled: z.boolean() }), { id: 'NotificationPreferences' }),
);

export const registerPushTokenRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'register-push-token',
    area: 'push',
    method: 'POST',
    path: `${API_PREFIX}/push/tokens`,
    auth: 'session',
    summary:
      'Registers a push token (repeated on every launch and on rotation). Mobile clients send `platform`; `previousToken` retires the old registration if it was the caller’s.',
    body: z.strictObject({
      token: nonBlank(1, 500),
      platform: z.optional(PushPlatform),
      userAgent: z.optional(z.string().check(z.maxLength(400, 'must be at most 400 characters'))),
      previousToken: z.optional(
        z.string().check(z.minLength(1)).check(z.maxLength(500, 'must be at most 500 characters')),
      ),
    }),
    status: 204,
    errors: [400],
    access: { table: 'write', writes: [PushToken], sns: true },
  }),
);

export const deletePushTokenRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'delete-push-token',
    area: 'push',
    method: 'DELETE',
    path: `${API_PREFIX}/push/tokens/{token}`,
    auth: 'session',
    summary: 'Removes a push token of the caller (call it on sign-out, before the session is cleared).',
    status: 204,
    access: { table: 'write', writes: [PushToken], sns: true },
  }),
);

export const getNotificationPreferencesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-notification-preferences',
    area: 'push',
    method: 'GET',
    path: `${API_PREFIX}/notifications/preferences`,
    auth: 'session',
    summary: 'The push preference (true for anyone who never chose).',
    status: 200,
    response: NotificationPreferences,
  }),
);

export const setNotificationPreferencesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'set-notification-preferences',
    area: 'push',
    method: 'POST',
    path: `${API_PREFIX}/notifications/preferences`,
    auth: 'session',
    summary: 'Switches push on or off; off stops delivery only (the bell still records, tokens stay).',
    body: z.strictObject({ pushEnabled: z.boolean() }),
    status: 204,
    errors: [400],
    access: { table: 'write', writes: [NotificationPrefs] },
  }),
);

export const pushRoutes = [
  registerPushTokenRoute,
  deletePushTokenRoute,
  getNotificationPreferencesRoute,
  setNotificationPreferencesRoute,
];
