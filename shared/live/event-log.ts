import { newId } from '../db/ids.ts';
import { liveEventKey, liveEventRange, liveHeadKey } from '../db/keys.ts';
import { getItem, isConditionFailure, putItem, putMany, queryPage, updateItem } from '../db/table.ts';
import type { Audience, ChangeEventDraft } from './change-events.ts';

/**
 * The event log the change feed appends to and stream connections poll (they never read the
 * DynamoDB stream themselves). It lives in the table:
 * - the head (`liveHeadKey`): the current epoch and the last seq handed out. Seqs come from `ADD` on
 *   it, so any number of consumer instances number events without gaps in the counter and without
 *   module memory; a new epoch (restart, deploy) resets seq;
 * - one item per event (`liveEventKey`), carrying ids only, with a TTL.
 *
 * Replay window (decisions 5: at least the last 1000 events or the last hour, whichever is more):
 * events are kept for RETENTION_SECONDS (a week), far beyond the window; a reconnecting client is
 * replayed when its gap is within REPLAY_EVENTS events or REPLAY_SECONDS old, else it gets `resync`.
 */
export const REPLAY_EVENTS = 1000;
export const REPLAY_SECONDS = 3600;
const RETENTION_SECONDS = 7 * 24 * 3600;

export interface LiveHead {
  epoch: string;
  seq: number;
}

/** A stored event: the change frame's data plus who may see it. */
export interface LiveEvent {
  seq: number;
  type: string;
  at: string;
  actorId: string | null;
  payload: Record<string, unknown>;
  /** `*` = everyone, else the one user id. */
  aud: string;
}

interface HeadItem {
  epoch?: string;
  seq?: number;
}

const audienceAttribute = (a: Audience) => (a.kind === 'all' ? '*' : a.userId);

/** Whether `userId` is in the event's audience. */
export const isFor = (event: Pick<LiveEvent, 'aud'>, userId: string) => event.aud === '*' || event.aud === userId;

/** Starts a new epoch (the service restarted or was deployed): seq restarts at 0. */
export async function startNewEpoch(): Promise<LiveHead> {
  const head = { epoch: newId(), seq: 0 };
  await putItem({ ...liveHeadKey(), entity: 'LiveHead', ...head, startedAt: new Date().toISOString() });
  return head;
}

/** Creates the first epoch when none exists (a fresh table); a concurrent creator wins harmlessly. */
async function ensureEpoch(): Promise<void> {
  const head = { epoch: newId(), seq: 0 };
  await putItem(
    { ...liveHeadKey(), entity: 'LiveHead', ...head, startedAt: new Date().toISOString() },
    { ConditionExpression: 'attribute_not_exists(epoch)' },
  ).catch((e) => (isConditionFailure(e) ? undefined : Promise.reject(e)));
}

/** The current epoch and last seq (creating the first epoch when the table has none). */
export async function readHead(consistent = false): Promise<LiveHead> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const item = await getItem<HeadItem>(liveHeadKey(), consistent || attempt > 0);
    if (item?.epoch) return { epoch: item.epoch, seq: item.seq ?? 0 };
    await ensureEpoch();
  }
  throw new Error('the event log has no epoch');
}

/** Hands out `count` consecutive seqs of the current epoch: answers the epoch and the last of them. */
async function allocate(count: number): Promise<LiveHead> {
  for (let attempt = 0; ; attempt++) {
    try {
      const out = (await updateItem({
        Key: liveHeadKey(),
        UpdateExpression: 'ADD seq :n',
        ConditionExpression: 'attribute_exists(epoch)',
        ExpressionAttributeValues: { ':n': count },
      })) as HeadItem;
      return { epoch: out.epoch!, seq: out.seq! };
    } catch (err) {
      if (!isConditionFailure(err) || attempt > 0) throw err;
      await ensureEpoch();
    }
  }
}

/**
 * Appends events in order: one `ADD` for the whole batch, then the items (BatchWrite). A stream
 * connection that sees the head move before the items land waits for them (see `stream-session.ts`).
 */
export async function appendEvents(drafts: (ChangeEventDraft & { at: Date })[]): Promise<LiveEvent[]> {
  if (drafts.length === 0) return [];
  const head = await allocate(drafts.length);
  const first = head.seq - drafts.length + 1;
  const events = drafts.map(
    (d, i): LiveEvent => ({
      seq: first + i,
      type: d.type,
      at: d.at.toISOString(),
      actorId: d.actorId,
      payload: d.payload,
      aud: audienceAttribute(d.audience),
    }),
  );
  await putMany(
    events.map((e) => ({
      ...liveEventKey(head.epoch, e.seq),
      entity: 'LiveEvent',
      epoch: head.epoch,
      ...e,
      ttl: Math.floor(Date.parse(e.at) / 1000) + RETENTION_SECONDS,
    })),
  );
  return events;
}

const toEvent = (item: Record<string, any>): LiveEvent => ({
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
): Promise<LiveEvent[]> {
  const { items } = await queryPage({ ...liveEventRange(epoch, after + 1), limit, consistent });
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
  head: LiveHead,
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
