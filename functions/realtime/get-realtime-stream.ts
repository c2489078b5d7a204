import { realtimeStreamRoute } from '../../shared/api/routes/realtime.ts';
import { authenticate } from '../../shared/auth/sessions.ts';
import { streamingRoute } from '../../shared/http/streaming-route.ts';
import { acquireStreamLease } from '../../shared/live/stream-leases.ts';
import { runStream } from '../../shared/live/stream-session.ts';

/** Ends this long before the function's limit, so the last frames are flushed and the client reconnects cleanly. */
const MARGIN_MS = 5_000;

/**
 * One of the person's stream slots first (503 with Retry-After over the cap, before any frame), held
 * for as long as the stream runs and renewed with each ping.
 */
export const handler = streamingRoute(realtimeStreamRoute, async (req, sink) => {
  const lease = await acquireStreamLease(req.caller.userId);
  try {
    await runStream(sink, {
      userId: req.caller.userId,
      lastEventId: req.event.headers?.['last-event-id'],
      endBy: Date.now() + req.remainingMs() - MARGIN_MS,
      stillSignedIn: () =>
        authenticate(req.token, { refresh: false }).then(
          (c) => c.userId === req.caller.userId,
          () => false,
        ),
      onPing: lease.renew,
    });
  } finally {
    await lease.release();
  }
});
