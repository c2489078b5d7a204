import { env } from '../config/env.ts';

/** Ends this long before the function's limit, so the last frames are flushed and the client reconnects cleanly. */
export const MARGIN_MS = 5_000;

/**
 * When a stream opened now ends: at a moment drawn between `LIVE_STREAM_MIN_SECONDS` and
 * `LIVE_STREAM_MAX_SECONDS` (5 and 6 minutes by default), never later than the function's limit less
 * a margin. The draw staggers reconnections (clients that connected together do not all come back
 * together); the bound is the longest an execution runs after its client left, since nothing tells
 * a deployed streaming function that it did.
 */
export function streamEndBy(remainingMs: number, now = Date.now()): number {
  const min = env.liveStreamMinSeconds * 1000;
  const life = min + Math.random() * (env.liveStreamMaxSeconds * 1000 - min);
  return now + Math.min(life, remainingMs - MARGIN_MS);
}
