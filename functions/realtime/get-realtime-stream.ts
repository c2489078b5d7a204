import { authenticate } from '../../shared/access/caller.ts';
import { realtimeStreamRoute } from '../../shared/api/routes/realtime.ts';
import { maySeeEvent } from '../../shared/calendar/events.ts';
import { mayRead } from '../../shared/feed/may-read.ts';
import { streamingRoute } from '../../shared/http/streaming-route.ts';
import { acquireStreamLease } from '../../shared/live/stream-leases.ts';
import { streamEndBy } from '../../shared/live/stream-lifetime.ts';
import { runStream } from '../../shared/live/stream-session.ts';

/**
 * One of the person's stream slots first (taking over the one of the same tab, or the person's oldest
 * at the cap), held while the stream runs, renewed with each ping and checked at every poll. The
 * stream ends by itself within its bounded life even when nobody reads it any more.
 */
export const handler = streamingRoute(realtimeStreamRoute, async (req, sink) => {
  const lease = await acquireStreamLease(req.caller.userId, {
    clientId: req.event.queryStringParameters?.clientId,
  });
  try {
    await runStream(sink, {
      userId: req.caller.userId,
      lastEventId: req.event.headers?.['last-event-id'],
      endBy: streamEndBy(req.remainingMs()),
      stillSignedIn: () =>
        authenticate(req.token, { refresh: false }).then(
          (c) => c.userId === req.caller.userId,
          () => false,
        ),
      onPing: lease.renew,
      stillHeld: lease.stillHeld,
      // A targeted post's or event's events go to those who may see it (docs/audiences.md).
      mayReadTarget: (target) =>
        target.startsWith('post:')
          ? mayRead(target.slice(5), req.caller.userId, req.caller.role)
          : maySeeEvent(target.slice(6), req.caller),
    });
  } finally {
    await lease.release();
  }
});
