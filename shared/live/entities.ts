import { type EntityItem, entity, shape } from '../db/entity.ts';

/**
 * The live area's entities (docs/data-model.md, Live updates), each declared once. The event log's
 * (head, replicas, events, record markers) are in the partitions the change feed's filter drops by key
 * (stream-filters.ts), and so are a person's stream leases.
 */

/** The event log's partition (a fixed key, so the change feed's filter drops the log's own writes by key). */
export const LIVE_PARTITION = 'LIVE';
/** The most replicas the log may keep: every partition key the log may use is known whatever K. */
export const LIVE_MAX_REPLICAS = 64;
/** Seqs are zero-padded in sort keys, so "after seq N" is one range Query. */
const SEQ_WIDTH = 15;
export const MAX_SEQ = 10 ** SEQ_WIDTH - 1;
const paddedSeq = (seq: number) => String(seq).padStart(SEQ_WIDTH, '0');

/** A position in the log: the epoch and its last seq handed out. */
type Position = {
  epoch: string;
  seq: number;
  /** When the epoch started (ISO); orders epochs, so a replica still on an older one is recognised. */
  startedAt: string;
};

/** The current epoch and the last seq handed out (moved with ADD; see event-log.ts). */
export const LiveHead = entity({
  name: 'LiveHead',
  fields: shape<Position>(),
  key: { pk: ['LIVE'], sk: ['HEAD'] },
  // A head written before epochs recorded their start lacks it.
  legacy: ['startedAt'],
});
export type LiveHeadItem = EntityItem<typeof LiveHead>;

/** One of the head's copies that stream connections poll, with the newest events inline. */
export const LiveReplica = entity({
  name: 'LiveReplica',
  fields: shape<
    Position & {
      /** Which replica (its key). */
      replica: number;
      /** The newest events, JSON in one string attribute: the smallest item DynamoDB can store them in. */
      recent: string;
    }
  >(),
  key: { pk: ['LIVE', 'replica'], sk: ['HEAD'] },
  // Replicas written before they stored their number (or their epoch's start) lack it.
  legacy: ['replica', 'startedAt'],
});

/** A stored event: the change frame's data plus who may see it. */
export interface LogEvent {
  seq: number;
  type: string;
  at: string;
  actorId: string | null;
  payload: Record<string, unknown>;
  /** `*` = everyone, else the one user id. */
  aud: string;
}

/** One event of the log (ids only), kept a week through `ttl`. */
export const LiveEvent = entity({
  name: 'LiveEvent',
  fields: shape<LogEvent & { epoch: string; ttl: number }>(),
  key: { pk: ['LIVE'], sk: ['EVENT', 'epoch', { field: 'seq', as: paddedSeq }] },
});

/** The seqs one stream record's events got, so a retried batch appends nothing twice. */
export const LiveRecord = entity({
  name: 'LiveRecord',
  fields: shape<{
    /** The stream record's `eventID` (its key). */
    recordId: string;
    epoch: string;
    first: number;
    ttl: number;
  }>(),
  key: { pk: ['LIVE'], sk: ['REC', 'recordId'] },
  // Markers written before they stored their record's id lack it (they expire within a day).
  legacy: ['recordId'],
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
 * tell "my lease was taken away" from a read older than its own write. Lease items once kept under
 * `USER#<id>` with the same sort key are never read again and expire by their TTL.
 */
export const StreamLeases = entity({
  name: 'StreamLeases',
  fields: shape<{ userId: string; version: number; leases: Record<string, StreamLease>; ttl: number }>(),
  key: { pk: ['STREAMS', 'userId'], sk: ['STREAM_LEASES'] },
  inPlace: true,
});
export type StreamLeasesItem = EntityItem<typeof StreamLeases>;

/** Every partition key the event log may use, whatever K (the change-feed filter drops writes to any). */
export const livePartitions = (): string[] => [
  LIVE_PARTITION,
  ...Array.from({ length: LIVE_MAX_REPLICAS }, (_, replica) => LiveReplica.key({ replica }).pk),
];
