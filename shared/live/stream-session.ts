import { randomInt } from 'node:crypto';
import { env } from '../config/env.ts';
import { coalesced } from './coalesced-reads.ts';
import type { LogEvent } from './entities.ts';
import {
  isFor,
  type PolledReplica,
  readEventsAfter,
  readersOf,
  readHead,
  readReplica,
  resumePoint,
} from './event-log.ts';
import { changeFrame, jitteredRetryMs, pingFrame, readyFrame, resyncFrame } from './sse.ts';

/**
 * One stream connection: `ready` first, then `resync` when the gap after
 * `Last-Event-ID` cannot be replayed, else the replayed gap; then the caller's change frames as the
 * event log grows, a `ping` every 25 s, until the client leaves, the session ends or the function
 * nears its time limit (the client then reconnects with its last id and loses nothing).
 *
 * It polls a replica of the event log's head, a different one each time (one read of at most 4 KB per
 * interval, with jitter), which carries the newest events inline; it reads the log itself only when
 * it fell behind those (a burst, a long replay) or while waiting for a missing seq. It never reads
 * the DynamoDB stream. Frames go out in seq order without duplicates; every
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
  /** Called after each ping (the handler renews the connection's lease). */
  onPing?: () => Promise<void>;
  /**
   * Checked at every poll: false once another connection took this one's slot (the same tab
   * reconnected, or the person opened more than their cap), and the stream ends.
   */
  stillHeld?: () => Promise<boolean>;
  /**
   * Whether the person may read a targeted post or event (`post:<id>`, `event:<id>`, docs/audiences.md):
   * asked for events to its readers; absent, such events are not delivered.
   */
  mayReadTarget?: (target: string) => Promise<boolean>;
  pollMs?: number;
  pingMs?: number;
  /** How long a missing seq (written out of order, or never) is waited for before it is skipped. */
  gapGraceMs?: number;
}

export type StreamEnd = 'client' | 'deadline' | 'signed-out' | 'epoch' | 'replaced';

const PAGE = 200;
export const PING_MS = 25_000;
const GAP_GRACE_MS = 3_000;
/**
 * A stream whose slot was taken tells its client (if it is still there: an evicted tab) to wait
 * this long before reconnecting, so tabs over the cap do not keep ending each other.
 */
const REPLACED_RETRY_MS: [number, number] = [30_000, 60_000];

const sleep = (ms: number, gone: Promise<void>) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, Math.max(0, ms));
    void gone.then(() => {
      clearTimeout(t);
      resolve();
    });
  });

/** A connection's replicas: a random one first, then the next at every poll (see `env.liveReplicas`). */
function replicaRotation() {
  const count = env.liveReplicas;
  let r = randomInt(count);
  return () => {
    r = (r + 1) % count;
    return r;
  };
}

/** Around `pollMs` (half to one and a half times): connections opened together do not poll in step. */
const jittered = (pollMs: number) => pollMs * (0.5 + Math.random());

export async function runStream(sink: FrameSink, o: StreamOptions): Promise<StreamEnd> {
  const pollMs = o.pollMs ?? env.livePollMs;
  const pingMs = o.pingMs ?? PING_MS;
  const gapGraceMs = o.gapGraceMs ?? GAP_GRACE_MS;
  const nextReplica = replicaRotation();
  let head = await readReplica(nextReplica());
  let start = await resumePoint(o.lastEventId, head);
  if (start.kind === 'resync' && start.reason === 'ahead') {
    // A replica can lag the log by a batch: only the head itself says an id is ahead of the server.
    const own = await readHead(true);
    if (own.epoch === head.epoch && own.seq > head.seq) {
      head = { ...own, events: [] };
      start = await resumePoint(o.lastEventId, head);
    }
  }
  const { epoch, startedAt = '' } = head;
  let cursor = start.kind === 'replay' ? start.after : head.seq;
  if (!(await sink.send(readyFrame(epoch, cursor)))) return 'client';
  if (start.kind === 'resync' && !(await sink.send(resyncFrame()))) return 'client';

  let gapSince: number | undefined;
  let lastPing = Date.now();
  // Reads shared by streams of one process (see coalesced-reads.ts) unless LIVE_COALESCED_READS=false,
  // which makes each stream read as its own execution environment does when deployed.
  const shared = <T>(key: string, maxAgeMs: number, read: () => Promise<T>) =>
    env.liveCoalescedReads ? coalesced(key, maxAgeMs, read) : read();
  // Every replica holds the same copy, so streams of one process share one read whichever it is.
  const readReplicaShared = (r: number) => shared('live-replica', pollMs / 2, () => readReplica(r));
  // A gap is re-read strongly consistent.
  const readAfter = (after: number, consistent: boolean) =>
    shared(`live-events:${epoch}:${after}:${consistent}`, consistent ? 0 : pollMs / 2, () =>
      readEventsAfter(epoch, after, PAGE, consistent),
    );

  // A connection's answers per targeted post or event: a yes is kept for the connection's life, a no for 30 s
  // (its person may be recorded among the readers meanwhile: the background pass, a dynamic audience).
  const readable = new Map<string, { answer: Promise<boolean>; at: number }>();
  const mayRead = async (target: string) => {
    if (!o.mayReadTarget) return false;
    if (readable.size > 1000) readable.clear();
    const known = readable.get(target);
    if (known && ((await known.answer) || Date.now() - known.at < 30_000)) return known.answer;
    const answer = o.mayReadTarget(target).catch(() => false);
    readable.set(target, { answer, at: Date.now() });
    return answer;
  };
  const deliver = async (e: LogEvent): Promise<boolean> => {
    const target = readersOf(e);
    const forMe = target !== undefined ? await mayRead(target) : isFor(e, o.userId);
    if (forMe && !(await sink.send(changeFrame(epoch, e)))) return false;
    cursor = e.seq;
    return true;
  };

  /**
   * Delivers what the log holds after the cursor, up to the replica's seq: from the replica's inline
   * events while they continue the cursor, then from the log itself; stops at a missing seq until it
   * is late.
   */
  const catchUp = async (h: PolledReplica): Promise<boolean> => {
    for (const e of h.events) {
      if (e.seq <= cursor) continue;
      if (e.seq !== cursor + 1) break;
      if (!(await deliver(e))) return false;
      gapSince = undefined;
    }
    while (cursor < h.seq) {
      const events: LogEvent[] = await readAfter(cursor, gapSince !== undefined);
      const now = Date.now();
      if (events.length === 0 || events[0].seq !== cursor + 1) {
        gapSince ??= now;
        if (now - gapSince < gapGraceMs) return true;
        if (events.length === 0) {
          cursor = h.seq; // the seqs were handed out but never written (a consumer that failed mid-batch)
          gapSince = undefined;
          return true;
        }
      }
      gapSince = undefined;
      for (const e of events) {
        if (e.seq > cursor + 1 && e !== events[0]) break; // a hole inside the page: read on from it next time
        if (!(await deliver(e))) return false;
      }
    }
    return true;
  };

  if (!(await catchUp(head))) return 'client';
  for (;;) {
    if (sink.closed) return 'client';
    const now = Date.now();
    if (now >= o.endBy) return 'deadline';
    const [h, held] = await Promise.all([readReplicaShared(nextReplica()), o.stillHeld?.() ?? true]);
    if (!held) {
      await sink.send(pingFrame(epoch, cursor, jitteredRetryMs(...REPLACED_RETRY_MS)));
      return 'replaced';
    }
    if (h.epoch !== epoch) {
      // A newer epoch ends the stream; a replica still on an older one has not been rewritten yet.
      if ((h.startedAt ?? '') > startedAt) return 'epoch';
    } else if (h.seq > cursor && !(await catchUp(h))) return 'client';
    if (Date.now() - lastPing >= pingMs) {
      if (!(await sink.send(pingFrame(epoch, cursor)))) return 'client';
      lastPing = Date.now();
      if (!(await o.stillSignedIn())) return 'signed-out';
      await o.onPing?.();
    }
    await sleep(Math.min(jittered(pollMs), o.endBy - Date.now(), lastPing + pingMs - Date.now()), sink.gone);
  }
}
