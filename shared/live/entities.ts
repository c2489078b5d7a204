import { entity } from '../db/entity.ts';
import { liveEventKey, liveHeadKey, liveRecordKey, liveReplicaKey, liveStreamLeasesKey } from '../db/keys.ts';
import type { LiveEvent, LiveHead } from './event-log.ts';

/**
 * The live area's entities (docs/data-model.md, Live updates), each declared once. The event log's
 * (head, replicas, events, record markers) are in the partitions the change feed's filter drops by key
 * (stream-filters.ts), and so are a person's stream leases.
 */

/** The current epoch and the last seq handed out (moved with ADD; see event-log.ts). */
export interface LiveHeadItem extends Required<LiveHead> {
  pk: string;
  sk: string;
  entity: 'LiveHead';
}
export const EventLogHead = entity<LiveHeadItem, []>({
  name: 'LiveHead',
  key: liveHeadKey,
  keyOf: () => [],
});

/** One of the head's copies that stream connections poll, with the newest events inline. */
export interface LiveReplicaItem extends Required<LiveHead> {
  pk: string;
  sk: string;
  entity: 'LiveReplica';
  /** Which replica (its key); replicas written before it was stored lack it. */
  replica: number;
  /** The newest events, JSON in one string attribute: the smallest item DynamoDB can store them in. */
  recent: string;
}
export const EventLogReplica = entity<LiveReplicaItem, [replica: number]>({
  name: 'LiveReplica',
  key: liveReplicaKey,
  keyOf: (r) => [r.replica],
});

/** One event of the log (ids only), kept a week through `ttl` (its stored `entity` is `LiveEvent`). */
export interface LiveEventItem extends LiveEvent {
  pk: string;
  sk: string;
  entity: 'LiveEvent';
  epoch: string;
  ttl: number;
}
export const LoggedEvent = entity<LiveEventItem, [epoch: string, seq: number]>({
  name: 'LiveEvent',
  key: liveEventKey,
  keyOf: (e) => [e.epoch, e.seq],
});

/** The seqs one stream record's events got, so a retried batch appends nothing twice. */
export interface LiveRecordItem {
  pk: string;
  sk: string;
  entity: 'LiveRecord';
  /** The stream record's `eventID` (its key); markers written before it was stored lack it. */
  recordId: string;
  epoch: string;
  first: number;
  ttl: number;
}
export const RecordMarker = entity<LiveRecordItem, [recordId: string]>({
  name: 'LiveRecord',
  key: liveRecordKey,
  keyOf: (r) => [r.recordId],
});

/**
 * A person's open live streams (stream-leases.ts): `open` and one `lease_<id>` attribute per open
 * connection (when its lease expires), only ever moved in place.
 */
export type StreamLeasesItem = {
  pk: string;
  sk: string;
  entity: 'StreamLeases';
  open: number;
  ttl: number;
} & { [lease: `lease_${string}`]: number };
export const StreamLeases = entity<StreamLeasesItem, [userId: string]>({
  name: 'StreamLeases',
  key: liveStreamLeasesKey,
});
