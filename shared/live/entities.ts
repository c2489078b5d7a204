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

/** One open connection's lease: when it expires (renewed with each ping), when it was taken, its tab. */
export interface StreamLease {
  exp: number;
  at: number;
  /** The client's own id for its tab (the stream's optional `clientId`), when it sent one. */
  client?: string;
}

/**
 * A person's open live streams (stream-leases.ts), one item in a partition of its own: `leases` by
 * lease id, and `version`, moved by every taking and giving back of a lease so that a connection can
 * tell "my lease was taken away" from a read older than its own write.
 */
export interface StreamLeasesItem {
  pk: string;
  sk: string;
  entity: 'StreamLeases';
  userId: string;
  version: number;
  leases: Record<string, StreamLease>;
  ttl: number;
}
export const StreamLeases = entity<StreamLeasesItem, [userId: string]>({
  name: 'StreamLeases',
  key: liveStreamLeasesKey,
  keyOf: (i) => [i.userId],
});
