import { randomUUID } from 'node:crypto';
import { newId } from '../db/ids.ts';
import { isConditionFailure, retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { conflict, notFound } from '../errors.ts';
import { readHead } from '../live/event-log.ts';
import { NotificationCounter } from '../notifications/entities.ts';
import { User } from '../people/entities.ts';
import { getUser } from '../people/users.ts';
import { PersonErasure, type PersonErasureItem } from './entities.ts';
import { jobProgressView, walkStart } from './walk-progress.ts';

/**
 * The erasure routes' side (docs/people-data.md): starting an erasure and
 * reading it. The walk is the worker's (erasure.ts), kept apart so that these functions carry none of it.
 */

/** What `DELETE /admin/members/{userId}` and `GET /admin/erasures/{id}` answer. */
export function erasureView(e: PersonErasureItem) {
  return {
    id: e.id,
    status: e.status,
    reason: e.reason,
    startedAt: e.startedAt,
    finishedAt: e.finishedAt,
    ...jobProgressView(e),
  };
}

/**
 * Starts erasing a deactivated person (`requestedBy` a super admin, or null for the retention). 404 for
 * nobody, 409 unless deactivated or while a legal hold is set; a person already being erased answers
 * their erasure, re-queued when it had failed (work.ts: it goes on from its last recorded step, its
 * attempts counted afresh; the person stayed marked meanwhile). The job and the person's mark are one
 * transaction conditioned on what was read.
 */
export async function startErasure(
  userId: string,
  requestedBy: string | null,
  now = new Date(),
): Promise<PersonErasureItem> {
  return retryOnConflict(
    async () => {
      const user = await getUser(userId, true);
      if (!user) throw notFound('No such person.');
      if (user.erasureId) {
        const running = await PersonErasure.get({ id: user.erasureId }, { consistent: true });
        if (running?.status === 'failed') return requeue(running);
        if (running) return running;
      }
      if (user.status !== 'deactivated')
        throw conflict('Only a deactivated account can be erased: deactivate it first.');
      if (user.legalHold) throw conflict('This account is under a legal hold: lift the hold before erasing it.');
      const head = await readHead(true);
      const job = PersonErasure.item({
        id: newId(),
        userId,
        email: user.email,
        name: user.name,
        dateOfBirth: user.dateOfBirth,
        pseudonym: randomUUID(),
        reason: requestedBy ? 'super_admin' : 'retention',
        requestedBy,
        startedAt: now.toISOString(),
        finishedAt: null,
        status: 'running',
        walk: walkStart(),
        counts: {},
        liveFrom: { epoch: head.epoch, seq: head.seq },
      });
      await transact([
        PersonErasure.create(job),
        markErasing(user.id, job.id, user.rev ?? 0),
        // The door: no notification to them is recorded from now on (notifications.ts, counterWrite).
        NotificationCounter.add({ userId }, { unread: 0 }, { set: { closed: job.id } }),
      ]);
      return job;
    },
    { attempts: 3, exhausted: () => conflict('The account changed while this request ran. Try again.') },
  );
}

/** A failed erasure running again from its last recorded step (a super admin's new request; the retention skips people already marked). */
async function requeue(e: PersonErasureItem): Promise<PersonErasureItem> {
  const again: PersonErasureItem = {
    ...e,
    status: 'running',
    attempts: undefined,
    retryAt: undefined,
    error: undefined,
    leaseUntil: undefined,
  };
  try {
    await transact([
      PersonErasure.change(e, again, {
        ConditionExpression: '#status = :failed',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':failed': 'failed' },
      }),
    ]);
    return again;
  } catch (err) {
    // Re-queued by another request meanwhile: answer it as it is now.
    if (!isConditionFailure(err)) throw err;
    return (await PersonErasure.get({ id: e.id }, { consistent: true })) ?? e;
  }
}

/** The person's mark: no reactivation, no second erasure, and no hold set after the erasure began. */
const markErasing = (userId: string, erasureId: string, rev: number): TransactItem =>
  User.update(
    { id: userId },
    {
      UpdateExpression: 'SET erasureId = :e',
      ConditionExpression:
        '#status = :deactivated AND attribute_not_exists(erasureId) AND (attribute_not_exists(legalHold) OR legalHold = :false) AND (attribute_not_exists(rev) OR rev = :rev)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':e': erasureId, ':deactivated': 'deactivated', ':false': false, ':rev': rev },
    },
  );

/** An erasure, as its route reads it. */
export async function readErasure(id: string): Promise<PersonErasureItem> {
  const e = await PersonErasure.get({ id }, { consistent: true });
  if (!e) throw notFound('No such erasure.');
  return e;
}
