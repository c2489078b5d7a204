import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Condition } from '../db/entity.ts';
import { isConditionFailure, type TransactItem, write } from '../db/table.ts';
import { logger } from '../observability/logger.ts';
import { metrics } from '../observability/metrics.ts';
import { eraseObjects } from '../storage/erase-objects.ts';
import {
  DataExport,
  type DataExportItem,
  type JobAttempts,
  PersonErasure,
  type PersonErasureItem,
} from './entities.ts';
import { erasureStep } from './erasure.ts';
import { expireExport, exportStep } from './export.ts';
import { exportPrefix } from './export-document.ts';
import { deliverNotice, noticePending } from './export-notice.ts';
import { failureReason, JOBS_FAILED_METRIC } from './job-failure.ts';
import { leaseFree, newLease, writeHeld } from './lease.ts';

/**
 * The data-rights worker (a schedule, shared/api/background.ts): takes every running erasure and open
 * export it can lease and works it step by step until it is done or `stop` says the function is near its
 * deadline; the next run goes on from the last recorded step. Erasures first: they are owed.
 *
 * One job cannot stop the others: a step that throws is caught here, the job's `attempts` counted and
 * its lease parked until `retryAt` (backoff doubling from RETRY_BASE_MS), and the run goes on with the
 * next job. After MAX_ATTEMPTS failures in a row the job is `failed`, with a reason that holds no
 * personal data (job-failure.ts), and the `DataRightsJobsFailed` metric counts it (the operators'
 * alarm watches it). A step that succeeds clears the count. A failed erasure keeps its person marked
 * (no reactivation, no export); a super admin's new `DELETE /admin/members/{id}` re-queues it
 * (erasure-requests.ts).
 */
export interface WorkOptions {
  stop?: () => boolean;
  now?: () => number;
  /** Only these jobs (by id): a test works its own, not the others its table holds. */
  only?: readonly string[];
}

/** Failed attempts in a row after which a job is `failed`. */
export const MAX_ATTEMPTS = 5;
/** The wait after the first failed attempt, doubled after each further one (1, 2, 4, 8 minutes). */
export const RETRY_BASE_MS = 60_000;
export const retryDelay = (attempts: number) => RETRY_BASE_MS * 2 ** (attempts - 1);

export async function runDataRightsWork(opts: WorkOptions = {}): Promise<{ erasures: number; exports: number }> {
  const stop = opts.stop ?? (() => false);
  const now = opts.now ?? Date.now;
  let erasures = 0;
  let exports = 0;
  const mine = (job: { id: string }) => !opts.only || opts.only.includes(job.id);
  const waiting = (job: JobAttempts) => !!job.retryAt && Date.parse(job.retryAt) > now();
  for (const job of await PersonErasure.queryAll({ index: 'running', key: {} })) {
    if (stop()) break;
    if (!mine(job) || waiting(job)) continue;
    const lease = await take(job, now());
    if (!lease) continue;
    // The index is eventually consistent: the job as the table holds it now.
    let current = (await PersonErasure.get({ id: job.id }, { consistent: true })) ?? null;
    try {
      while (current && current.status === 'running' && !stop()) {
        const before: PersonErasureItem = current;
        const step = erasureStepName(before);
        try {
          current = await cleared(PersonErasure, await erasureStep(before, before.leaseUntil!, { now: now() }));
        } catch (err) {
          current = await failedAttempt(PersonErasure, before, step, err, now());
          break;
        }
      }
    } catch (err) {
      logger.error('data rights: could not record an erasure', { id: job.id, error: (err as Error).name });
      continue;
    }
    if (current?.status === 'done') erasures++;
  }
  for (const job of await DataExport.queryAll({ index: 'open', key: {} })) {
    if (stop()) break;
    if (!mine(job)) continue;
    const expiring = job.status === 'ready' && !!job.expiresAt && Date.parse(job.expiresAt) <= now();
    const due = noticePending(job.notice) || expiring || (job.status === 'running' && !waiting(job));
    if (!due) continue;
    const lease = await take(job, now());
    if (!lease) continue;
    let current = (await DataExport.get({ id: job.id }, { consistent: true })) ?? null;
    try {
      // The notice first: it is owed whatever becomes of the export (its failures do not fail the job).
      if (current && noticePending(current.notice)) current = await deliverNotice(current, current.leaseUntil!);
      if (current?.status === 'ready') {
        if (current.expiresAt && Date.parse(current.expiresAt) <= now()) {
          try {
            await expireExport(current, current.leaseUntil!, new Date(now()));
          } catch (err) {
            await failedAttempt(DataExport, current, 'expiry', err, now());
          }
        }
        continue;
      }
      while (current && current.status === 'running' && !stop() && !waiting(current)) {
        const before: DataExportItem = current;
        const step = before.walk.tableDone ? 'assembly' : 'table walk';
        try {
          current = await cleared(DataExport, await exportStep(before, before.leaseUntil!));
        } catch (err) {
          current = await failedAttempt(DataExport, before, step, err, now());
          break;
        }
      }
    } catch (err) {
      logger.error('data rights: could not record an export', { id: job.id, error: (err as Error).name });
      continue;
    }
    if (current?.status === 'ready') exports++;
  }
  return { erasures, exports };
}

const erasureStepName = (job: PersonErasureItem) =>
  !job.walk.tableDone
    ? 'table walk'
    : !job.walk.objectsDone
      ? 'objects'
      : !job.again?.tableDone
        ? 'second walk'
        : !job.documents?.done
          ? 'documents'
          : 'change log';

type Job = PersonErasureItem | DataExportItem;
/** The declaration that writes a job (either kind). */
type JobEntity = { change: (before: any, after: any, condition: Condition) => TransactItem };

/** After a step that succeeded: a count of failed attempts is cleared (they are counted in a row). */
async function cleared<T extends Job>(entity: JobEntity, job: T | null): Promise<T | null> {
  if (!job?.leaseUntil || (!job.attempts && !job.retryAt)) return job;
  return writeHeld(entity, job, { ...job, attempts: undefined, retryAt: undefined, error: undefined }, job.leaseUntil);
}

/**
 * A step that threw: one more failed attempt. Before MAX_ATTEMPTS the job waits until `retryAt` (its
 * lease parked until then, so no run takes it sooner); at MAX_ATTEMPTS it is `failed` (an export's
 * objects erased: it will not be finished) and counted by the metric. The error's message is logged
 * by its class only: it may hold keys and ids.
 */
async function failedAttempt<T extends Job>(
  entity: JobEntity,
  job: T,
  step: string,
  err: unknown,
  at: number,
): Promise<T | null> {
  const attempts = (job.attempts ?? 0) + 1;
  const error = failureReason(step, err);
  const lease = job.leaseUntil!;
  logger.warn('data rights: a step failed', { id: job.id, attempts, reason: error });
  if (attempts < MAX_ATTEMPTS) {
    const retryAt = new Date(at + retryDelay(attempts)).toISOString();
    const parked = `${retryAt}#${lease.split('#')[1] ?? ''}`;
    return writeHeld(entity, job, { ...job, attempts, retryAt, error, leaseUntil: parked }, lease);
  }
  if (DataExport.is(job)) await eraseObjects(exportPrefix(job.id)).catch(() => 0);
  const failed = await writeHeld(
    entity,
    job,
    { ...job, attempts, retryAt: undefined, error, status: 'failed', leaseUntil: undefined },
    lease,
  );
  if (failed) {
    metrics.addMetric(JOBS_FAILED_METRIC, MetricUnit.Count, 1);
    logger.error('data rights: a job failed', { id: job.id, reason: error });
  }
  return failed;
}

/** Leases a job for this run, or null when another run holds it. */
async function take(job: Job, at: number): Promise<string | null> {
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
