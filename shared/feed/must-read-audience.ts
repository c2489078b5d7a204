import { page as pageOf } from '../db/paging.ts';
import { failedConditions, isConditionFailure, type TransactItem, transact } from '../db/table.ts';
import { User, type UserItem } from '../people/entities.ts';
import { MustRead, MustReadAck, type MustReadItem, PostReader } from './entities.ts';
import { nextPageOf } from './paged-progress.ts';

/**
 * Who must acknowledge a must-read (docs/must-read.md), kept by the company fan-out consumer, never
 * a request:
 * - everybody active (not deactivated) who joined at or before the post (`cutoff`), but the author,
 *   added page by page from the members index when the post's `MustRead` item is inserted, each page
 *   recorded with the item's next step and cursor in one transaction, conditional on the step read
 *   (a redelivery goes on from the last recorded page; no page is recorded twice);
 * - anybody who becomes active (a new member, or a deactivated one reactivated) while a must-read's
 *   `joinUntil` is ahead;
 * - a person deactivated drops out of every must-read they still owe.
 * Each person's part is created only if absent (an early acknowledgement, or the other path, was
 * first) and only while the person is not deactivated (a check in the same transaction), and the
 * counts move in that transaction: they stay exact whatever the order of events.
 */

/** People added per transaction: each is their part and a check of their status (2 of 100 items). */
export const AUDIENCE_PAGE = 45;

const notDeactivated = (userId: string): TransactItem =>
  User.check(
    { id: userId },
    {
      ConditionExpression: 'attribute_exists(pk) AND #userStatus <> :deactivated',
      ExpressionAttributeNames: { '#userStatus': 'status' },
      ExpressionAttributeValues: { ':deactivated': 'deactivated' },
    },
  );

const pendingPart = (postId: string, userId: string, at: string) =>
  MustReadAck.create({ postId, userId, status: 'pending', addedAt: at, acknowledgedAt: null });

/** The whole company's next page: active members who joined by the cutoff, but the author. */
async function membersPage(m: MustReadItem, pageSize: number) {
  const found = await User.query(
    {
      index: 'members',
      key: {},
      // sk `<joinedAt>#<id>`; '$' follows '#', so `< cutoff$` keeps joinedAt <= cutoff.
      skBefore: `${m.cutoff}$`,
      filter: {
        FilterExpression: '#status <> :deactivated AND id <> :author',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':deactivated': 'deactivated', ':author': m.authorId },
      },
    },
    pageOf({ limit: pageSize, cursor: m.cursor ?? undefined }),
  );
  return { ids: found.items.map((u) => u.id), nextCursor: found.nextCursor };
}

/** A targeted must-read's next page: its frozen readers (docs/audiences.md), but the author. */
async function readersPage(m: MustReadItem, pageSize: number) {
  const found = await PostReader.query(
    {
      key: { postId: m.postId },
      filter: {
        FilterExpression: 'userId <> :author',
        ExpressionAttributeValues: { ':author': m.authorId },
      },
    },
    pageOf({ limit: pageSize, cursor: m.cursor ?? undefined }),
  );
  return { ids: found.items.map((r) => r.userId), nextCursor: found.nextCursor };
}

/**
 * Adds the next page of the first audience; answers the state as it now is. Throws a condition
 * failure when another attempt recorded this page first.
 */
export async function addAudiencePage(m: MustReadItem, pageSize = AUDIENCE_PAGE): Promise<MustReadItem> {
  const found = m.targeted ? await readersPage(m, pageSize) : await membersPage(m, pageSize);
  const done = found.nextCursor === null;
  const at = new Date().toISOString();
  let people = found.ids;
  for (;;) {
    const step = nextPageOf(m, people.length, { done, cursor: found.nextCursor, at, counters: ['pending'] });
    try {
      await transact([
        MustRead.update({ postId: m.postId }, step.parts),
        ...people.flatMap((id) => [pendingPart(m.postId, id, at), notDeactivated(id)]),
      ]);
      return step.progress;
    } catch (err) {
      const failed = failedConditions(err);
      // The progress's own condition: another attempt recorded this page (the caller stops).
      if (!isConditionFailure(err) || failed.length === 0 || failed.includes(0)) throw err;
      // A part already there (acknowledged early, or added as a joiner) or a person deactivated since: left out.
      const skip = new Set(failed.map((i) => people[(i - 1) >> 1]));
      people = people.filter((id) => !skip.has(id));
    }
  }
}

/** Adds what is left of a must-read's first audience; stops quietly when done, gone, or taken over. */
export async function addAudience(postId: string, pageSize = AUDIENCE_PAGE): Promise<void> {
  let m = await MustRead.get({ postId }, { consistent: true });
  try {
    while (m && !m.doneAt) m = await addAudiencePage(m, pageSize);
  } catch (err) {
    if (isConditionFailure(err)) return; // another attempt recorded this page: it goes on from there
    throw err;
  }
}

/** The must-reads a person becoming active now joins: those whose joinUntil is still ahead (O(open must-reads)). */
const joinable = () =>
  MustRead.queryAll({ index: 'joinable', key: {}, skAfter: new Date().toISOString() }, { max: 1000 });

/**
 * A person who became active (new, or reactivated): added to every must-read still open to joiners.
 * A targeted must-read (docs/audiences.md) takes them only through its dynamic audience (joinOne).
 */
export async function join(person: Pick<UserItem, 'id'>): Promise<void> {
  for (const m of await joinable()) {
    if (m.authorId === person.id || m.targeted) continue;
    await joinOne(m, person.id);
  }
}

/** One person added to one must-read's people, unless already there, deactivated, or the post is gone. */
export async function joinOne(m: Pick<MustReadItem, 'postId'>, userId: string): Promise<void> {
  try {
    await transact([
      pendingPart(m.postId, userId, new Date().toISOString()),
      notDeactivated(userId),
      MustRead.add({ postId: m.postId }, { pending: 1 }, { mustExist: true }),
    ]);
  } catch (err) {
    // Already there (acknowledged, or added by the first audience), deactivated again, or the post is gone.
    if (!isConditionFailure(err)) throw err;
  }
}

/** A person deactivated: out of every must-read they still owe (the count moves with each removal). */
export async function leave(userId: string): Promise<void> {
  const owed = await MustReadAck.queryAll({ index: 'owed', key: { userId } }, { max: 10000 });
  for (const part of owed) {
    const stillPending = {
      ConditionExpression: '#ackStatus = :pending',
      ExpressionAttributeNames: { '#ackStatus': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending' },
    };
    try {
      await transact([
        MustReadAck.remove(part, stillPending),
        MustRead.add({ postId: part.postId }, { pending: -1 }, { mustExist: true }),
      ]);
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const failed = failedConditions(err);
      // The post is gone (its state with it): the part goes alone. Acknowledged meanwhile: it stays.
      if (failed.includes(1) && !failed.includes(0)) {
        await transact([MustReadAck.remove(part, stillPending)]).catch((e) =>
          isConditionFailure(e) ? undefined : Promise.reject(e),
        );
      }
    }
  }
}
