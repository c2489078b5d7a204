import { env } from '../config/env.ts';
import { newId } from '../db/ids.ts';
import { isConditionFailure, retryOnConflict, write } from '../db/table.ts';
import { unavailable } from '../errors.ts';
import { logger } from '../observability/logger.ts';
import { coalesced } from './coalesced-reads.ts';
import { type StreamLease as StreamLeaseEntry, StreamLeases, type StreamLeasesItem } from './entities.ts';

/**
 * A cap on the live streams one person holds (a person with 30 tabs must not take 30 of the stream
 * function's reserved executions), kept in the table: one item per person (its own partition,
 * `STREAMS#<id>`), one lease per open connection.
 *
 * Deployed, a streaming function is never told that its client left: a closed tab or a reload leaves
 * its execution running, pinging and renewing its lease. So a new connection never waits for old
 * ones to give their slot back; it takes one:
 * - a connection that names its tab (`clientId`) replaces the lease of the same person and tab (the
 *   page before a reload);
 * - at the cap, the oldest lease is ended instead of refusing the newcomer;
 * - expired leases (their execution crashed and stopped renewing) are dropped.
 * The execution whose lease was taken sees it at its next poll (`stillHeld`) and ends. Leases never
 * outlive their connection's bounded life (`env.liveStreamMaxSeconds`), so an orphan nobody replaces
 * ends by itself.
 *
 * Every change is an update in place, never a read-modify-write of the whole item, so openings of one
 * person never conflict (a person opening 50 at once included). Adding a lease and ending leases move
 * `version`; renewals do not.
 */
export const LEASE_SECONDS = 60; // two pings (25 s) and a margin
/** The item goes (DynamoDB TTL) a day after its last write. */
const ITEM_TTL_SECONDS = 24 * 3600;
/** Adding tries the map's two states (absent, present) in turn; more only if items vanish meanwhile. */
const ATTEMPTS = 4;
const RETRY_AFTER_SECONDS = 5;

export interface StreamLease {
  readonly id: string;
  renew(): Promise<void>;
  release(): Promise<void>;
  /**
   * False once another connection took this lease (replaced by the same tab, or the oldest over the
   * cap), or a renewal found it gone. An eventually consistent read older than this lease's own
   * write says nothing (its `version` is lower) and counts as held.
   */
  stillHeld(): Promise<boolean>;
  /** What the taking of this lease ended: leases of the same tab, the oldest over the cap, expired ones. */
  readonly took: { replaced: number; evicted: number; expired: number };
}

const ttl = () => Math.floor(Date.now() / 1000) + ITEM_TTL_SECONDS;

export interface AcquireOptions {
  /** The tab's own id (the stream's `clientId`). */
  clientId?: string;
  cap?: number;
}

export async function acquireStreamLease(userId: string, o: AcquireOptions = {}): Promise<StreamLease> {
  const cap = Math.max(1, o.cap ?? env.liveStreamsPerPerson);
  const read = (consistent: boolean) => StreamLeases.get({ userId }, { consistent });
  const id = newId();
  const now = Date.now();
  const lease: StreamLeaseEntry = {
    exp: now + LEASE_SECONDS * 1000,
    at: now,
    ...(o.clientId ? { client: o.clientId } : {}),
  };
  const item = await addLease(userId, id, lease);
  const version = item.version;
  // Which leases this one ends, decided on the item as it stood right after the addition: expired
  // ones, the same tab's, and the oldest beyond the cap. Concurrent openings decide on views that
  // differ only by each other's additions, and both pick oldest first, so they end the same leases.
  const others = Object.entries(item.leases).filter(([k]) => k !== id);
  const expired = others.filter(([, l]) => l.exp <= now).map(([k]) => k);
  const live = others.filter(([, l]) => l.exp > now);
  const replaced = o.clientId ? live.filter(([, l]) => l.client === o.clientId).map(([k]) => k) : [];
  const rest = live
    .filter(([, l]) => !o.clientId || l.client !== o.clientId)
    .sort(([ka, a], [kb, b]) => a.at - b.at || ka.localeCompare(kb));
  const evicted = rest.slice(0, Math.max(0, rest.length - (cap - 1))).map(([k]) => k);
  const ended = [...expired, ...replaced, ...evicted];
  if (ended.length) {
    await write(
      StreamLeases.update(
        { userId },
        {
          UpdateExpression: `REMOVE ${ended.map((_, i) => `#leases.#e${i}`).join(', ')} ADD version :one`,
          ExpressionAttributeNames: { '#leases': 'leases', ...Object.fromEntries(ended.map((k, i) => [`#e${i}`, k])) },
          ExpressionAttributeValues: { ':one': 1 },
        },
      ),
      { returnValues: 'NONE' },
    );
    if (replaced.length || evicted.length)
      logger.info('stream leases taken over', {
        replaced: replaced.length,
        evicted: evicted.length,
        expired: expired.length,
      });
  }
  // The checks at each poll: shared by the person's streams of one process unless
  // LIVE_COALESCED_READS=false (as the replica reads are, stream-session.ts).
  const check = () =>
    env.liveCoalescedReads ? coalesced(`stream-leases:${userId}`, env.livePollMs / 2, () => read(false)) : read(false);
  return leaseOf(userId, id, version, check, {
    replaced: replaced.length,
    evicted: evicted.length,
    expired: expired.length,
  });
}

/**
 * Adds a lease in place (no read first: openings of one person never conflict, however many come at
 * once) and answers the item as it is after the addition. `version` moves with it.
 */
async function addLease(userId: string, id: string, lease: StreamLeaseEntry): Promise<StreamLeasesItem> {
  const busy = () => unavailable('The live stream cannot start right now; retry shortly.', RETRY_AFTER_SECONDS);
  return retryOnConflict(
    async (attempt) => {
      // The map is missing only for a person's first stream: the second attempt creates it.
      const first = attempt % 2 === 0;
      const after = await write(
        StreamLeases.update(
          { userId },
          {
            // The first lease creates the map; the others add to it (a path into a missing map fails).
            UpdateExpression: first
              ? 'SET #leases = :map, userId = :user, entity = :entity, #ttl = :ttl ADD version :one'
              : 'SET #leases.#id = :lease, userId = :user, entity = :entity, #ttl = :ttl ADD version :one',
            ConditionExpression: first ? 'attribute_not_exists(#leases)' : 'attribute_exists(#leases)',
            ExpressionAttributeNames: { '#leases': 'leases', '#ttl': 'ttl', ...(first ? {} : { '#id': id }) },
            ExpressionAttributeValues: {
              ...(first ? { ':map': { [id]: lease } } : { ':lease': lease }),
              ':user': userId,
              ':entity': StreamLeases.name,
              ':ttl': ttl(),
              ':one': 1,
            },
          },
        ),
      );
      if (!StreamLeases.is(after)) throw busy();
      return after;
    },
    { attempts: ATTEMPTS, exhausted: busy },
  );
}

function leaseOf(
  userId: string,
  id: string,
  version: number,
  read: () => Promise<StreamLeasesItem | undefined>,
  took: StreamLease['took'],
): StreamLease {
  let lost = false;
  const names = { '#leases': 'leases', '#id': id };
  return {
    id,
    took,
    // Only a lease still held is renewed (one taken by another connection stays taken).
    renew: () =>
      write(
        StreamLeases.update(
          { userId },
          {
            UpdateExpression: 'SET #leases.#id.#exp = :exp, #ttl = :ttl',
            ConditionExpression: 'attribute_exists(#leases.#id)',
            ExpressionAttributeNames: { ...names, '#exp': 'exp', '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':exp': Date.now() + LEASE_SECONDS * 1000, ':ttl': ttl() },
          },
        ),
        { returnValues: 'NONE' },
      ).then(
        () => undefined,
        (err) => {
          if (isConditionFailure(err)) lost = true;
          else logger.warn('stream lease not renewed', { error: err as Error });
        },
      ),
    release: () =>
      write(
        StreamLeases.update(
          { userId },
          {
            UpdateExpression: 'REMOVE #leases.#id ADD version :one',
            ConditionExpression: 'attribute_exists(#leases.#id)',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ':one': 1 },
          },
        ),
        { returnValues: 'NONE' },
      ).then(
        () => undefined,
        (err) => {
          if (!isConditionFailure(err)) logger.warn('stream lease not released (it expires)', { error: err as Error });
        },
      ),
    async stillHeld() {
      if (lost) return false;
      const item = await read();
      if (!item || item.version < version) return true;
      lost = !item.leases?.[id];
      return !lost;
    },
  };
}
