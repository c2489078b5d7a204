import { randomBytes } from 'node:crypto';
import type { Condition } from '../db/entity.ts';
import { isConditionFailure, type TransactItem, write } from '../db/table.ts';

/**
 * A data-rights job is worked by one worker at a time: the worker that takes it writes `leaseUntil`
 * (the lease's end, then a random suffix, so two workers never hold the same value) on condition that no
 * lease is current, and every later write of the job is conditioned on holding it. A worker that stops
 * (a timeout, a crash) lets the lease run out, and the next run takes the job over from its last
 * recorded step (work.ts).
 */
export const LEASE_MS = 2 * 60 * 1000;

/** A new lease ending LEASE_MS from now. */
export const newLease = (now = Date.now()) =>
  `${new Date(now + LEASE_MS).toISOString()}#${randomBytes(6).toString('base64url')}`;

/** The same lease, extended. */
export const renewLease = (lease: string, now = Date.now()) =>
  `${new Date(now + LEASE_MS).toISOString()}#${lease.split('#')[1] ?? ''}`;

/** A job's writes hold only while its lease is the one the worker took. */
export const leaseHeld = (lease: string) => ({
  ConditionExpression: 'leaseUntil = :lease',
  ExpressionAttributeValues: { ':lease': lease },
});

/** Taking a job: no lease, or one that ran out (ISO times compare as strings). */
export const leaseFree = (now = Date.now()) => ({
  ConditionExpression: 'attribute_not_exists(leaseUntil) OR leaseUntil < :now',
  ExpressionAttributeValues: { ':now': new Date(now).toISOString() },
});

/**
 * Writes a job's next state if the worker still holds its lease: the job as written, or null when
 * another worker has taken it over (this run then leaves it).
 */
export async function writeHeld<T>(
  entity: { change: (before: T, after: T, condition: Condition) => TransactItem },
  job: T,
  next: T,
  lease: string,
): Promise<T | null> {
  try {
    await write(entity.change(job, next, leaseHeld(lease)));
    return next;
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}
