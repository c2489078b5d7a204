import { Presence, PresenceConnection } from '../../presence/entities.ts';
import * as z from '../../util/zod.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { nonBlank } from '../schemas/common.ts';

const P = `${API_PREFIX}/presence`;

export const sendHeartbeatRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'send-presence-heartbeat',
    area: 'presence',
    method: 'POST',
    path: `${P}/heartbeat`,
    auth: 'session',
    summary:
      'A heartbeat of one client connection (sent on opening, then every 60 s). `active`: the page is visible and saw input since the previous heartbeat.',
    body: z.strictObject({ connectionId: nonBlank(1, 200), active: z.boolean() }),
    status: 204,
    errors: [400],
    access: { table: 'write', writes: [Presence, PresenceConnection] },
  }),
);

export const closeConnectionRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'close-presence-connection',
    area: 'presence',
    method: 'POST',
    path: `${P}/connections/{connectionId}/close`,
    auth: 'session',
    summary: 'Closes one connection of the caller (a person with none left is offline at once); skipping it is safe.',
    status: 204,
    access: { table: 'write', writes: [Presence, PresenceConnection] },
  }),
);

export const presenceSignOutRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'presence-sign-out',
    area: 'presence',
    method: 'POST',
    path: `${P}/sign-out`,
    auth: 'session',
    summary:
      'Closes every connection of the calling session (call it before signing out); other devices are unaffected.',
    status: 204,
    access: { table: 'write', writes: [Presence, PresenceConnection] },
  }),
);

export const presenceRoutes = [sendHeartbeatRoute, closeConnectionRoute, presenceSignOutRoute];
