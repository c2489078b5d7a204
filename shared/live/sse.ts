import type { LogEvent } from './entities.ts';

/**
 * Server-sent-event frames. Every frame carries JSON data (an event without a data line is
 * never dispatched by EventSource). `ready` and `ping` carry the stream's position as their id too, so
 * a client that saw no change frame for itself still reconnects from where its stream was.
 */
function frame(event: string, data: unknown, id?: string, retryMs?: number): string {
  let out = '';
  if (id) out += `id: ${id}\n`;
  out += `event: ${event}\n`;
  if (retryMs !== undefined) out += `retry: ${retryMs}\n`;
  return `${out}data: ${JSON.stringify(data)}\n\n`;
}

export const eventId = (epoch: string, seq: number) => `${epoch}:${seq}`;

/**
 * A reconnection delay between `minMs` and `maxMs`: clients whose streams ended together (a deploy
 * starts a new epoch and ends every stream at its next poll) come back spread over seconds.
 */
export const jitteredRetryMs = (minMs = 1000, maxMs = 5000) => Math.round(minMs + Math.random() * (maxMs - minMs));

/** First frame of every connection; `retry` asks EventSource to reconnect after 1 to 5 seconds. */
export const readyFrame = (epoch: string, position: number, retryMs = jitteredRetryMs()) =>
  frame('ready', { epoch }, eventId(epoch, position), retryMs);

export const changeFrame = (epoch: string, e: LogEvent) =>
  frame(
    'change',
    { seq: e.seq, type: e.type, at: e.at, actorId: e.actorId, payload: e.payload },
    eventId(epoch, e.seq),
  );

export const resyncFrame = () => frame('resync', {});

/** `retryMs`: the last frame of a stream whose slot was taken sets a longer reconnection delay. */
export const pingFrame = (epoch: string, position: number, retryMs?: number) =>
  frame('ping', {}, eventId(epoch, position), retryMs);
