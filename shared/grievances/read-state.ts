import { PRESENT } from '../db/entity.ts';
import { getMany, type Item, isConditionFailure, keyString, type TransactItem, transact } from '../db/table.ts';
import { personTag, personTags, raiserTags, readTags, sameTag } from './anonymity.ts';
import { Grievance, type GrievanceItem, GrievanceRead, GrievanceSeen, GrievanceTotals } from './entities.ts';
import { readerRefWrite } from './erasure-refs.ts';
import { totalOf } from './totals.ts';

/**
 * Read state per person without any item that names the person or links their
 * grievances: a read marker is addressed by tag(person, grievance) alone, and the unread count is
 * `all grievances − the person's counter`, a counter addressed by tag(person) that grows by one when
 * they raise a grievance and when they first mark somebody else's read. The raiser's own grievance
 * needs no marker: `raiserTag` on it already says it is theirs.
 */

/**
 * Where a person's marker of the grievance may be: under the grievance secret's current key or an
 * earlier one of its ring (docs/deployment.md, "Rotating the secrets"). Reads try them all.
 */
export const readMarkerKeys = (userId: string, grievanceId: string) =>
  readTags(userId, grievanceId).map((readTag) => GrievanceRead.key({ readTag }));
/** A person's counters: one per key of the ring (a rotation starts a new one); their sum is what counts. */
const seenKeys = (userId: string) => personTags(userId).map((personTag) => GrievanceSeen.key({ personTag }));

export const isRaiser = (userId: string, g: Pick<GrievanceItem, 'id' | 'raiserTag'>) =>
  sameTag(g.raiserTag, raiserTags(userId, g.id));

/** Whether the caller has not opened `g`, given the markers read with `readMarkerKeys`. */
export function isUnread(userId: string, g: GrievanceItem, markers: Map<string, Item>): boolean {
  return !isRaiser(userId, g) && !readMarkerKeys(userId, g.id).some((k) => markers.has(keyString(k)));
}

/**
 * Counts one more grievance as seen by the person (in the raise's or the first read's transaction), or
 * one less (-1: the retention sweep erased a grievance they had raised or read).
 */
export const seenWrite = (userId: string, delta: 1 | -1 = 1): TransactItem =>
  GrievanceSeen.add({ personTag: personTag(userId) }, { seen: delta });

/**
 * Marks `g` read for the caller, once: the marker's conditional put, the counter move and the sealed
 * reference the retention sweep erases them by (erasure-refs.ts) are one transaction, so concurrent
 * first reads count once and a second read keeps the first time.
 */
export async function markRead(userId: string, g: GrievanceItem): Promise<void> {
  if (isRaiser(userId, g)) return;
  const [current, ...earlier] = readTags(userId, g.id);
  try {
    await transact([
      GrievanceRead.create({ readTag: current, readAt: new Date().toISOString() }),
      // Read before the secret was rotated: that marker stands, and counts once.
      ...earlier.map((readTag) =>
        GrievanceRead.check({ readTag }, { ConditionExpression: 'attribute_not_exists(pk)' }),
      ),
      seenWrite(userId),
      readerRefWrite(g.id, userId),
      Grievance.check(g, PRESENT), // not erased meanwhile (retention.ts)
    ]);
  } catch (err) {
    if (!isConditionFailure(err)) throw err; // already read: the first time stands
  }
}

/** Grievances the caller has not opened: two counters, one read. */
export async function unreadCount(userId: string): Promise<number> {
  const totalsKey = GrievanceTotals.key({});
  const seen = seenKeys(userId);
  const found = await getMany([totalsKey, ...seen], true);
  const totals = found.get(keyString(totalsKey));
  const all = GrievanceTotals.is(totals) ? totalOf(totals, {}) : 0;
  const mine = seen.reduce((n, k) => {
    const counter = found.get(keyString(k));
    return n + (GrievanceSeen.is(counter) ? counter.seen : 0);
  }, 0);
  return Math.max(0, all - mine);
}
