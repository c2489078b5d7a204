import { env } from '../config/env.ts';
import type { UpdateParts } from '../db/entity.ts';
import { newId } from '../db/ids.ts';
import { getItem, isConditionFailure, write } from '../db/table.ts';
import { unavailable } from '../errors.ts';
import { logger } from '../observability/logger.ts';
import { StreamLeases, type StreamLeasesItem } from './entities.ts';

/**
 * A cap on the live streams one person holds open (a person with 30 tabs must not take 30 of the
 * stream function's reserved executions). The count lives in the table, not in memory: one item per
 * person with `open` (the count) and one attribute per open connection, `lease_<id>` = when its
 * lease expires, moved together in each update. A connection renews its lease with each ping and
 * removes it when it ends; a connection that crashed stops renewing, so its slot frees itself once
 * the lease has expired (the next opening over the cap removes expired leases). Opening over the cap
 * answers 503 with `Retry-After` (README, "The live stream at scale": clients then refetch what a
 * screen shows when it opens).
 */
export const LEASE_SECONDS = 60; // two pings (25 s) and a margin
const RETRY_AFTER_SECONDS = 30;
/** The item goes (DynamoDB TTL) a day after its last lease was written. */
const ITEM_TTL_SECONDS = 24 * 3600;
const LEASE_PREFIX = 'lease_';

export interface StreamLease {
  renew(): Promise<void>;
  release(): Promise<void>;
}

const tooMany = (cap: number) =>
  unavailable(
    `You already have ${cap} live streams open; close one (or share one connection between tabs) and retry.`,
    RETRY_AFTER_SECONDS,
  );

const ignoreCondition = (err: unknown) => (isConditionFailure(err) ? undefined : Promise.reject(err));

const expiry = () => ({
  ':exp': Date.now() + LEASE_SECONDS * 1000,
  ':ttl': Math.floor(Date.now() / 1000) + ITEM_TTL_SECONDS,
});

/**
 * Takes one of the person's `cap` slots: 1 conditional write (`open < cap`, the item created by it
 * when missing); when full, 1 consistent read and 1 write removing the expired leases, then again.
 */
export async function acquireStreamLease(userId: string, cap = env.liveStreamsPerPerson): Promise<StreamLease> {
  const update = (parts: UpdateParts) => write(StreamLeases.update([userId], parts), { returnValues: 'NONE' });
  const lease = `${LEASE_PREFIX}${newId()}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await update({
        UpdateExpression: 'SET #lease = :exp, #ttl = :ttl, entity = :entity ADD #open :one',
        ConditionExpression: 'attribute_not_exists(#open) OR #open < :cap',
        ExpressionAttributeNames: { '#lease': lease, '#ttl': 'ttl', '#open': 'open' },
        ExpressionAttributeValues: { ...expiry(), ':cap': cap, ':one': 1, ':entity': StreamLeases.name },
      });
      return leaseOf(update, lease);
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    const item = (await getItem<StreamLeasesItem>(StreamLeases.key(userId), true)) ?? {};
    const expired = Object.entries(item).filter(
      ([name, until]) => name.startsWith(LEASE_PREFIX) && typeof until === 'number' && until <= Date.now(),
    );
    if (expired.length === 0) throw tooMany(cap);
    await update({
      UpdateExpression: `REMOVE ${expired.map((_, i) => `#e${i}`).join(', ')} ADD #open :gone`,
      // Each removed lease is still the expired one (not renewed in between).
      ConditionExpression: expired.map((_, i) => `#e${i} = :e${i}`).join(' AND '),
      ExpressionAttributeNames: { '#open': 'open', ...Object.fromEntries(expired.map(([k], i) => [`#e${i}`, k])) },
      ExpressionAttributeValues: {
        ':gone': -expired.length,
        ...Object.fromEntries(expired.map(([, v], i) => [`:e${i}`, v])),
      },
    }).catch(ignoreCondition);
  }
  throw tooMany(cap);
}

function leaseOf(update: (parts: UpdateParts) => Promise<unknown>, lease: string): StreamLease {
  const names = { '#lease': lease, '#open': 'open' };
  return {
    // Only a lease still held is renewed (one removed as expired stays removed); a failed renewal
    // costs the stream nothing, the slot frees early at worst.
    renew: () =>
      update({
        UpdateExpression: 'SET #lease = :exp, #ttl = :ttl',
        ConditionExpression: 'attribute_exists(#lease)',
        ExpressionAttributeNames: { '#lease': lease, '#ttl': 'ttl' },
        ExpressionAttributeValues: expiry(),
      })
        .catch(ignoreCondition)
        .then(
          () => undefined,
          (err) => logger.warn('stream lease not renewed', { error: err as Error }),
        ),
    release: () =>
      update({
        UpdateExpression: 'REMOVE #lease ADD #open :minus',
        ConditionExpression: 'attribute_exists(#lease)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':minus': -1 },
      })
        .catch(ignoreCondition)
        .then(
          () => undefined,
          (err) => logger.warn('stream lease not released (it expires)', { error: err as Error }),
        ),
  };
}
