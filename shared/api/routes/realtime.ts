import { LiveHead, LiveReplica, StreamLeases } from '../../live/entities.ts';
import * as z from '../../util/zod.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';

/**
 * The live-update stream: server-sent events through Lambda response streaming, kept out of the
 * OpenAPI document. Each connection lives between `LIVE_STREAM_MIN_SECONDS` and
 * `LIVE_STREAM_MAX_SECONDS` (5 to 6 minutes) and ends cleanly; clients reconnect with `Last-Event-ID`.
 * `clientId` (optional) names the browser tab (kept in sessionStorage, which survives a reload): a
 * new stream of the same person and tab ends the old one at its next poll. It reads the event log and
 * sessions; it writes only the daily session refresh, the person's stream leases and the first epoch
 * of a fresh table (its role's writes are limited to those partitions).
 */
export const realtimeStreamRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-realtime-stream',
    area: 'realtime',
    method: 'GET',
    path: `${API_PREFIX}/realtime/stream`,
    auth: 'session',
    summary: 'Server-sent events: ready, change, resync, ping.',
    query: z.strictObject({
      clientId: z.optional(
        z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'clientId: 1 to 64 letters, digits, "-" or "_"')),
      ),
    }),
    status: 200,
    streaming: true,
    timeout: 900,
    // Mostly waiting on the next poll: the smallest memory keeps an open connection cheapest (docs/data-model.md).
    memory: 128,
    // Its leases and the event log's head and replicas (a fresh table's first epoch); sessions are added
    // for the daily refresh (access-policy.ts). Nothing under USER#: the stream cannot touch accounts.
    access: { table: 'write', writes: [StreamLeases, LiveHead, LiveReplica] },
  }),
);

export const realtimeRoutes = [realtimeStreamRoute];
