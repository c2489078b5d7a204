import { env } from '../config/env.ts';
import { coalesced } from './coalesced-reads.ts';
import { isFor, type LiveEvent, readEventsAfter, readHead, resumePoint } from './event-log.ts';
import { changeFrame, pingFrame, readyFrame, resyncFrame } from './sse.ts';

/**
 * One stream connection (spec 6.1, decisions 5 and 8): `ready` first, then `resync` when the gap after
 * `Last-Event-ID` cannot be replayed, else the replayed gap; then the caller's change frames as the
 * event log grows, a `ping` every 25 s, until the client leaves, the session ends or the function
 * nears its time limit (the client then reconnects with its last id and loses nothing).
 *
 * It polls the event log's head (one small read per interval) and reads events only when the head
 * moved; it never reads the DynamoDB stream. Frames go out in seq order without duplicates; every
 * event's audience is checked against the caller, replayed ones included.
 */
export interface FrameSink {
  /** Sends one frame; false when the client is gone. */
  send(frame: string): Promise<boolean>;
  readonly closed: boolean;
  /** Settles when the client leaves. */
  readonly gone: Promise<void>;
}

export interface StreamOptions {
  userId: string;
  lastEventId?: string;
  /** Epoch milliseconds by which the stream has ended (before the function's limit). */
  endBy: number;
  /** Checked with every ping: the stream ends with the session. */
  stillSignedIn: () => Promise<boolean>;
  pollMs?: number;
  pingMs?: number;
  /** How long a missing seq (written out of order, or never) is waited for before it is skipped. */
  gapGraceMs?: number;
}

export type StreamEnd = 'client' | 'deadline' | 'signed-out' | 'epoch';

const PAGE = 200;
export const PING_MS = 25_000;
const GAP_GRACE_MS = 3_000;

const sleep = (ms: number, gone: Promise<void>) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, Math.max(0, ms));
    void gone.then(() => {
      clearTimeout(t);
      resolve();
    });
  });

export async function runStream(sink: FrameSink, o: StreamOptions): Promise<StreamEnd> {
  const pollMs = o.pollMs ?? env.livePollMs;
  const pingMs = o.pingMs ?? PING_MS;
  const gapGraceMs = o.gapGraceMs ?? GAP_GRACE_MS;
  const head = await readHead(true);
  const { epoch } = head;
  const start = await resumePoint(o.lastEventId, head);
  let cursor = start.kind === 'replay' ? start.after : head.seq;
  if (!(await sink.send(readyFrame(epoch, cursor)))) return 'client';
  if (start.kind === 'resync' && !(await sink.send(resyncFrame()))) return 'client';

  let gapSince: number | undefined;
  let lastPing = Date.now();
  // Reads shared by streams of one process (see coalesced-reads.ts); a gap is re-read strongly consistent.
  const readHeadShared = () => coalesced('live-head', pollMs / 2, () => readHead());
  const readAfter = (after: number, consistent: boolean) =>
    coalesced(`live-events:${epoch}:${after}:${consistent}`, consistent ? 0 : pollMs / 2, () =>
      readEventsAfter(epoch, after, PAGE, consistent),
    );

  /** Delivers what the log holds after the cursor, up to `upTo`; stops at a missing seq until it is late. */
  const catchUp = async (upTo: number): Promise<boolean> => {
    while (cursor < upTo) {
      const events: LiveEvent[] = await readAfter(cursor, gapSince !== undefined);
      const now = Date.now();
      if (events.length === 0 || events[0].seq !== cursor + 1) {
        gapSince ??= now;
        if (now - gapSince < gapGraceMs) return true;
        if (events.length === 0) {
          cursor = upTo; // the seqs were handed out but never written (a consumer that failed mid-batch)
          gapSince = undefined;
          return true;
        }
      }
      gapSince = undefined;
      for (const e of events) {
        if (e.seq > cursor + 1 && e !== events[0]) break; // a hole inside the page: read on from it next time
        if (isFor(e, o.userId) && !(await sink.send(changeFrame(epoch, e)))) return false;
        cursor = e.seq;
      }
    }
    return true;
  };

  if (!(await catchUp(head.seq))) return 'client';
  for (;;) {
    if (sink.closed) return 'client';
    const now = Date.now();
    if (now >= o.endBy) return 'deadline';
    const h = await readHeadShared();
    if (h.epoch !== epoch && (await readHead(true)).epoch !== epoch) return 'epoch';
    if (h.seq > cursor && !(await catchUp(h.seq))) return 'client';
    if (Date.now() - lastPing >= pingMs) {
      if (!(await sink.send(pingFrame(epoch, cursor)))) return 'client';
      lastPing = Date.now();
      if (!(await o.stillSignedIn())) return 'signed-out';
    }
    await sleep(Math.min(pollMs, o.endBy - Date.now(), lastPing + pingMs - Date.now()), sink.gone);
  }
}
