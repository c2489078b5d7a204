import { env } from '../config/env.ts';
import { newId } from '../db/ids.ts';
import { isConditionFailure, putMany, retryOnConflict, write } from '../db/table.ts';
import type { Audience, ChangeEventDraft } from './change-events.ts';
import { LiveEvent, LiveHead, type LiveHeadItem, LiveRecord, LiveReplica, type LogEvent, MAX_SEQ } from './entities.ts';

/**
 * The event log the change feed appends to and stream connections poll (they never read the
 * DynamoDB stream themselves). It lives in the table:
 * - the head (`LiveHead`): the current epoch and the last seq handed out. Seqs come from `ADD` on
 *   it, so any number of consumer instances number events without gaps in the counter and without
 *   module memory; a new epoch (restart, deploy) resets seq. Only the consumer reads it in the
 *   normal course;
 * - one item per event (`LiveEvent`), carrying ids only, with a TTL;
 * - `LIVE_REPLICAS` replicas of the head (`LiveReplica`), each in its own partition, rewritten once
 *   per batch with the newest events inline: what stream connections poll (one small read gives the
 *   position and, normally, the events), spread over many keys so no partition carries every
 *   connection's polls (docs/data-model.md);
 * - one marker per stream record appended (`LiveRecord`): the seqs it got, so a retried batch
 *   writes the same events at the same seqs instead of appending them twice.
 *
 * Replay window (at least the last 1000 events or the last hour, whichever is more):
 * events are kept for RETENTION_SECONDS (a week), far beyond the window; a reconnecting client is
 * replayed when its gap is within REPLAY_EVENTS events or REPLAY_SECONDS old, else it gets `resync`.
 */
export const REPLAY_EVENTS = 1000;
export const REPLAY_SECONDS = 3600;
const RETENTION_SECONDS = 7 * 24 * 3600;
/** A DynamoDB stream keeps records 24 hours: a marker outlives every retry of its record. */
const MARKER_SECONDS = 25 * 3600;
/**
 * Inline events on a replica: the newest that fit this many bytes of JSON, so a replica stays under
 * 4 KB, one read unit (0.5 RCU eventually consistent). About 15–20 events of ids.
 */
const INLINE_BYTES = 3_300;
/** How many of the newest events the consumer reads to fill the inline list. */
const INLINE_READ = 30;

/** A position in the log: the epoch, its last seq and (when known) when it started. */
export interface LogHead {
  epoch: string;
  seq: number;
  /** When the epoch started (ISO); orders epochs, so a replica still on an older one is recognised. */
  startedAt?: string;
}

/** What a stream connection polls: a head plus the newest events, ascending seq. */
export interface PolledReplica extends LogHead {
  events: LogEvent[];
}

/** One stream record's events, with the record's id (its `eventID`) when it came from the stream. */
export interface RecordDrafts {
  recordId?: string;
  drafts: (ChangeEventDraft & { at: Date })[];
}

/** The `aud` of an event: `*`, a person's id, or (a targeted post's or event's readers) `post:<id>`, `event:<id>`. */
const audienceAttribute = (a: Audience) => (a.kind === 'all' ? '*' : a.kind === 'readers' ? a.of : a.userId);

/** Whether `userId` is in the event's audience (a targeted thing's readers: never here, see `readersOf`). */
export const isFor = (event: Pick<LogEvent, 'aud'>, userId: string) => event.aud === '*' || event.aud === userId;

/** The targeted post or event (`post:<id>`, `event:<id>`) whose readers a log event is for, if it is. */
export const readersOf = (event: Pick<LogEvent, 'aud'>): string | undefined =>
  /^(post|event):/.test(event.aud) ? event.aud : undefined;

const replicaFields = (head: Required<LogHead>, events: LogEvent[] = []) =>
  Array.from({ length: env.liveReplicas }, (_, replica) => ({ replica, ...head, recent: JSON.stringify(events) }));

/** Starts a new epoch (the service restarted or was deployed): seq restarts at 0, on the head and every replica. */
export async function startNewEpoch(): Promise<LogHead> {
  const head = { epoch: newId(), seq: 0, startedAt: new Date().toISOString() };
  await write(LiveHead.put(head));
  await putMany(replicaFields(head).map(LiveReplica.item));
  return head;
}

/** Creates the first epoch when none exists (a fresh table); a concurrent creator wins harmlessly. */
async function ensureEpoch(): Promise<void> {
  const head = { epoch: newId(), seq: 0, startedAt: new Date().toISOString() };
  try {
    await write(LiveHead.put(head, { ConditionExpression: 'attribute_not_exists(epoch)' }));
  } catch (err) {
    if (isConditionFailure(err)) return;
    throw err;
  }
  await putMany(replicaFields(head).map(LiveReplica.item));
}

/** The current epoch and last seq from the head itself (creating the first epoch when the table has none). */
export async function readHead(consistent = false): Promise<LogHead> {
  let item = await LiveHead.get({}, { consistent });
  if (!item?.epoch) {
    await ensureEpoch();
    item = await LiveHead.get({}, { consistent: true });
  }
  if (!item?.epoch) throw new Error('the event log has no epoch');
  return { epoch: item.epoch, seq: item.seq ?? 0, startedAt: item.startedAt };
}

/**
 * One replica of the head (eventually consistent: one read unit). A replica the consumer has not
 * written yet (a table older than the replicas) reads as the head itself, without inline events.
 */
export async function readReplica(replica: number): Promise<PolledReplica> {
  const item = await LiveReplica.get({ replica: replica % env.liveReplicas });
  if (!item?.epoch) return { ...(await readHead(true)), events: [] };
  return { epoch: item.epoch, seq: item.seq ?? 0, startedAt: item.startedAt, events: JSON.parse(item.recent ?? '[]') };
}

/** Hands out `count` consecutive seqs of the current epoch: answers the epoch and the last of them. */
async function allocate(count: number): Promise<Required<LogHead>> {
  // The head's condition fails only on a fresh table: the second attempt creates the first epoch first.
  return retryOnConflict(
    async (attempt) => {
      if (attempt > 1) await ensureEpoch();
      const out: Partial<LiveHeadItem> =
        (await write(
          LiveHead.update(
            {},
            {
              UpdateExpression: 'ADD seq :n',
              ConditionExpression: 'attribute_exists(epoch)',
              ExpressionAttributeValues: { ':n': count },
            },
          ),
        )) ?? {};
      return { epoch: out.epoch!, seq: out.seq!, startedAt: out.startedAt ?? '' };
    },
    { attempts: 2 },
  );
}

const numbered = (drafts: RecordDrafts['drafts'], first: number): LogEvent[] =>
  drafts.map((d, i) => ({
    seq: first + i,
    type: d.type,
    at: d.at.toISOString(),
    actorId: d.actorId,
    payload: d.payload,
    aud: audienceAttribute(d.audience),
  }));

const eventItem = (epoch: string, e: LogEvent) =>
  LiveEvent.item({ epoch, ...e, ttl: Math.floor(Date.parse(e.at) / 1000) + RETENTION_SECONDS });

/**
 * Appends the events of stream records in order, idempotently per record: one `ADD` for the records
 * not appended before, their markers (BatchWrite), then the events (BatchWrite), then the replicas.
 * A record whose marker exists (the batch is a retry) gets its events written again at the seqs it
 * was given, which repairs a batch that failed between its markers and its events and duplicates
 * nothing. A stream connection that sees the head move before the items land waits for them (see
 * `stream-session.ts`).
 */
export async function appendRecords(records: RecordDrafts[]): Promise<LogEvent[]> {
  const producing = records.filter((r) => r.drafts.length > 0);
  if (producing.length === 0) return [];
  const ids = producing.flatMap((r) => (r.recordId ? [{ recordId: r.recordId }] : []));
  const found = ids.length ? await LiveRecord.getMany(ids, { consistent: true }) : [];
  const markers = new Map(ids.map((id, i) => [id.recordId, found[i]]));
  const markerOf = (r: RecordDrafts) => (r.recordId ? markers.get(r.recordId) : undefined);

  const fresh = producing.filter((r) => !markerOf(r));
  let head: Required<LogHead> | undefined;
  const placed = new Map<RecordDrafts, { epoch: string; first: number }>();
  if (fresh.length > 0) {
    const count = fresh.reduce((n, r) => n + r.drafts.length, 0);
    head = await allocate(count);
    let next = head.seq - count + 1;
    for (const r of fresh) {
      placed.set(r, { epoch: head.epoch, first: next });
      next += r.drafts.length;
    }
    const ttl = Math.floor(Date.now() / 1000) + MARKER_SECONDS;
    await putMany(
      fresh.flatMap((r) => (r.recordId ? [LiveRecord.item({ recordId: r.recordId, ...placed.get(r)!, ttl })] : [])),
    );
  }
  const written = producing.map((r) => {
    const at = placed.get(r) ?? markerOf(r)!;
    return { epoch: at.epoch, events: numbered(r.drafts, at.first) };
  });
  await putMany(written.flatMap((w) => w.events.map((e) => eventItem(w.epoch, e))));
  await publishReplicas(head ?? (await readHead(true)));
  return written.flatMap((w) => w.events);
}

/** Appends events that come from no stream record (not idempotent: each call appends). */
export const appendEvents = (drafts: RecordDrafts['drafts']): Promise<LogEvent[]> => appendRecords([{ drafts }]);

/**
 * Copies the head and the newest events of its epoch (what the log holds now) to every replica. A
 * replica moves only forward: a newer epoch, or a higher seq of the same one, so two consumer
 * instances writing at once leave the newer copy.
 */
async function publishReplicas(head: LogHead): Promise<void> {
  const items = await LiveEvent.queryAll(
    { key: {}, range: eventRange(head.epoch, 0), forward: false, consistent: true },
    { max: INLINE_READ },
  );
  const inline: LogEvent[] = [];
  let bytes = 2;
  for (const item of items) {
    const e = toEvent(item);
    bytes += JSON.stringify(e).length + 1;
    if (bytes > INLINE_BYTES) break;
    inline.unshift(e);
  }
  const seq = Math.max(head.seq, inline.at(-1)?.seq ?? 0);
  const replicas = replicaFields({ epoch: head.epoch, seq, startedAt: head.startedAt ?? '' }, inline);
  await Promise.all(
    replicas.map((fields) =>
      write(
        LiveReplica.put(fields, {
          ConditionExpression: 'attribute_not_exists(seq) OR startedAt < :startedAt OR (epoch = :epoch AND seq < :seq)',
          ExpressionAttributeValues: { ':startedAt': fields.startedAt, ':epoch': fields.epoch, ':seq': fields.seq },
        }),
      ).catch((err) => (isConditionFailure(err) ? undefined : Promise.reject(err))),
    ),
  );
}

/** The events of an epoch with seq in [from, to]. */
export const eventRange = (epoch: string, from: number, to = MAX_SEQ) => ({
  from: { epoch, seq: from },
  to: { epoch, seq: to },
});

const toEvent = (item: LogEvent): LogEvent => ({
  seq: item.seq,
  type: item.type,
  at: item.at,
  actorId: item.actorId ?? null,
  payload: item.payload ?? {},
  aud: item.aud,
});

/** Up to `limit` events of `epoch` after seq `after`, in seq order (one Query). */
export async function readEventsAfter(
  epoch: string,
  after: number,
  limit: number,
  consistent = false,
): Promise<LogEvent[]> {
  const items = await LiveEvent.queryAll({ key: {}, range: eventRange(epoch, after + 1), consistent }, { max: limit });
  return items.map(toEvent);
}

export type ResumePoint = { kind: 'live' } | { kind: 'replay'; after: number } | { kind: 'resync'; reason: string };

/**
 * Where a connection starts, from its `Last-Event-ID` (`<epoch>:<seq>`): replay after it when the gap
 * is inside the replay window, else resync (malformed, another epoch, seq ahead of the head, or
 * older than the window). Without an id the connection starts live.
 */
export async function resumePoint(
  lastEventId: string | undefined,
  head: LogHead,
  now = new Date(),
): Promise<ResumePoint> {
  if (lastEventId === undefined || lastEventId.trim() === '') return { kind: 'live' };
  const m = /^([0-9a-f-]{36}):(\d{1,15})$/i.exec(lastEventId.trim());
  if (!m) return { kind: 'resync', reason: 'malformed' };
  const [, epoch, seqText] = m;
  const seq = Number(seqText);
  if (epoch.toLowerCase() !== head.epoch.toLowerCase()) return { kind: 'resync', reason: 'epoch' };
  if (seq > head.seq) return { kind: 'resync', reason: 'ahead' };
  if (head.seq - seq <= REPLAY_EVENTS) return { kind: 'replay', after: seq };
  const [next] = await readEventsAfter(head.epoch, seq, 1, true);
  if (next && Date.parse(next.at) >= now.getTime() - REPLAY_SECONDS * 1000) return { kind: 'replay', after: seq };
  return { kind: 'resync', reason: 'expired' };
}
