import { liveStreamLeasesKey } from '../../db/keys.ts';
import { API_PREFIX, defineRoute } from '../route-def.ts';

/**
 * The live-update stream: server-sent events through Lambda response streaming, kept
 * out of the OpenAPI document. It runs up to the function's limit (15 minutes) and ends cleanly before
 * it; clients reconnect with `Last-Event-ID`. It reads the event log and sessions; it writes only what
 * every route may (the daily session refresh) and the first epoch of a fresh table.
 */
export const realtimeStreamRoute = defineRoute({
  name: 'get-realtime-stream',
  area: 'realtime',
  method: 'GET',
  path: `${API_PREFIX}/realtime/stream`,
  auth: 'session',
  summary: 'Server-sent events: ready, change, resync, ping.',
  status: 200,
  streaming: true,
  timeout: 900,
  // Mostly waiting on the next poll: the smallest memory keeps an open connection cheapest (docs/data-model.md).
  memory: 128,
  access: { table: 'write', writes: [liveStreamLeasesKey] },
});

export const realtimeRoutes = [realtimeStreamRoute];
