import { isConditionFailure, write } from '../db/table.ts';
import { logger } from '../observability/logger.ts';
import { DataExport, type DataExportItem, PersonErasure, type PersonErasureItem } from './entities.ts';
import { erasureStep } from './erasure.ts';
import { expireExport, exportStep } from './export.ts';
import { leaseFree, newLease } from './lease.ts';

/**
 * The data-rights worker (a schedule, shared/api/background.ts): takes every running erasure and open
 * export it can lease and works it step by step until it is done or `stop` says the function is near its
 * deadline; the next run goes on from the last recorded step. Erasures first: they are owed.
 */
export interface WorkOptions {
  stop?: () => boolean;
  now?: () => number;
  /** Only these jobs (by id): a test works its own, not the others its table holds. */
  only?: readonly string[];
}

export async function runDataRightsWork(opts: WorkOptions = {}): Promise<{ erasures: number; exports: number }> {
  const stop = opts.stop ?? (() => false);
  const now = opts.now ?? Date.now;
  let erasures = 0;
  let exports = 0;
  const mine = (job: { id: string }) => !opts.only || opts.only.includes(job.id);
  for (const job of await PersonErasure.queryAll({ index: 'running', key: {} })) {
    if (stop()) break;
    if (!mine(job)) continue;
    const lease = await take(job, now());
    if (!lease) continue;
    // The index is eventually consistent: the job as the table holds it now.
    let current = (await PersonErasure.get({ id: job.id }, { consistent: true })) ?? null;
    while (current && current.status === 'running' && !stop())
      current = await erasureStep(current, current.leaseUntil!, { now: now() });
    if (current?.status === 'done') erasures++;
  }
  for (const job of await DataExport.queryAll({ index: 'open', key: {} })) {
    if (stop()) break;
    if (!mine(job)) continue;
    if (job.status === 'ready' && (!job.expiresAt || Date.parse(job.expiresAt) > now())) continue;
    const lease = await take(job, now());
    if (!lease) continue;
    let current = (await DataExport.get({ id: job.id }, { consistent: true })) ?? null;
    if (current?.status === 'ready') {
      await expireExport(current, lease, new Date(now()));
      continue;
    }
    while (current && current.status === 'running' && !stop()) current = await exportStep(current, current.leaseUntil!);
    if (current?.status === 'ready') exports++;
  }
  return { erasures, exports };
}

/** Leases a job for this run, or null when another run holds it. */
async function take(job: PersonErasureItem | DataExportItem, at: number): Promise<string | null> {
  const lease = newLease(at);
  const update = {
    UpdateExpression: 'SET leaseUntil = :lease',
    ConditionExpression: leaseFree(at).ConditionExpression,
    ExpressionAttributeValues: { ...leaseFree(at).ExpressionAttributeValues, ':lease': lease },
  };
  try {
    await write(
      PersonErasure.is(job) ? PersonErasure.update({ id: job.id }, update) : DataExport.update({ id: job.id }, update),
    );
    return lease;
  } catch (err) {
    if (isConditionFailure(err)) return null;
    logger.error('data rights: could not take a job', { id: job.id, error: (err as Error).message });
    return null;
  }
}
