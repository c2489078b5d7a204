import { failedConditions, isConditionFailure, type TransactItem, transact } from '../db/table.ts';
import type { CompanyValues } from '../people/company-values.ts';
import { User } from '../people/entities.ts';
import { inPool } from '../util/in-pool.ts';
import { type Mark, PostSeen, ReachDay, ReachSlice, ReachTotal, SLICINGS, type Slicing } from './entities.ts';

/**
 * The first mark of a person on a post (seen, reacted, commented, acknowledged) and the roll-ups it
 * moves, in one transaction (docs/reach.md): the person's `PostSeen` gets `<mark>At` only if it has
 * none (`attribute_not_exists`), and the post's total, the mark's day and the person's four slices move
 * by one with ADD. So a repeated or concurrent mark fails its condition and counts nothing: the counts
 * are exact whatever the order or repetition of events, and no read counts readers.
 */

/** What a mark needs of its post: its id, when it was published, and its audience (null: everybody). */
export interface MarkedPost {
  postId: string;
  publishedAt: string;
  audienceId: string | null;
}

export interface MarkEntry {
  post: MarkedPost;
  userId: string;
  /** The person's company values at the moment of the mark: the slices it counts in. */
  values: CompanyValues;
  mark: Mark;
  at: string;
}

/** The slice value of a person's company values in a slicing ('' when they have none). */
export function sliceValue(values: CompanyValues, by: Slicing): string {
  switch (by) {
    case 'department':
      return values.department ?? '';
    case 'team':
      return values.teamId ?? '';
    case 'location':
      return values.location ?? '';
    case 'manager':
      return values.managerId ?? '';
  }
}

/** The UTC day (YYYY-MM-DD) of an instant: the days' and the rankings' bucket. */
export const utcDay = (iso: string) => iso.slice(0, 10);

/** The SETs that place a post's total on the rankings indexes (partition keys; the sort keys move with `seen`). */
export function totalPlacement(post: MarkedPost): Record<string, unknown> {
  const publishedDay = utcDay(post.publishedAt);
  const at = ReachTotal.indexAttributes({
    postId: post.postId,
    publishedDay,
    audienceId: post.audienceId,
    seen: 0,
  });
  return {
    entity: ReachTotal.name,
    postId: post.postId,
    publishedAt: post.publishedAt,
    publishedDay,
    audienceId: post.audienceId,
    gsi6pk: at.gsi6pk,
    ...(at.gsi7pk ? { gsi7pk: at.gsi7pk } : {}),
  };
}

/** An update that SETs `set` and ADDs `add` (names and values generated). */
export function setAndAdd(set: Record<string, unknown>, add: Record<string, number>, condition?: string) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(set).map(([field, value], i) => {
    names[`#s${i}`] = field;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  const adds = Object.entries(add).map(([field, delta], i) => {
    names[`#a${i}`] = field;
    values[`:a${i}`] = delta;
    return `#a${i} :a${i}`;
  });
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', adds.length ? `ADD ${adds.join(', ')}` : '']
    .filter(Boolean)
    .join(' ');
  return {
    UpdateExpression: expression,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ...(condition ? { ConditionExpression: condition } : {}),
  };
}

/** The writes of one first mark: the person's mark (conditional) and its 6 roll-ups. */
export function markWrites(e: MarkEntry): TransactItem[] {
  const { postId } = e.post;
  const markField = `${e.mark}At`;
  const seenIndex =
    e.mark === 'seen' ? PostSeen.indexAttributes({ postId, userId: e.userId, seenAt: e.at }) : ({} as object);
  const mine = setAndAdd(
    { entity: PostSeen.name, postId, userId: e.userId, [markField]: e.at, ...seenIndex },
    {},
    `attribute_not_exists(#m)`,
  );
  const own = PostSeen.update(
    { postId, userId: e.userId },
    { ...mine, ExpressionAttributeNames: { ...mine.ExpressionAttributeNames, '#m': markField } },
  );
  // The rankings' sort keys (gsi6sk, gsi7sk) are `seen` itself, moved by the same delta.
  const rankMoves = e.mark === 'seen' ? { gsi6sk: 1, ...(e.post.audienceId ? { gsi7sk: 1 } : {}) } : {};
  const total = ReachTotal.update({ postId }, setAndAdd(totalPlacement(e.post), { [e.mark]: 1, ...rankMoves }));
  const day = utcDay(e.at);
  const daily = ReachDay.update({ postId, day }, setAndAdd({ entity: ReachDay.name, postId, day }, { [e.mark]: 1 }));
  const slices = SLICINGS.map((by) => {
    const value = sliceValue(e.values, by);
    return ReachSlice.update(
      { postId, by, value },
      setAndAdd({ entity: ReachSlice.name, postId, by, value }, { [e.mark]: 1 }),
    );
  });
  return [own, total, daily, ...slices];
}

/** Entries per transaction: 7 writes each, and one check of the person, within DynamoDB's 100. */
const PER_TRANSACTION = 14;

/** The check that a person's erasure has not started (nothing of theirs is written after it began). */
const notErased = (userId: string) =>
  User.check({ id: userId }, { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(erasureId)' });

/**
 * Records first marks: transactions of 14 marks (≤ 99 items), a few at a time. A transaction whose
 * condition fails (a mark recorded meanwhile by a concurrent request or a redelivered record, or the
 * person's erasure begun) is tried again mark by mark, and a mark already there counts nothing.
 * Answers how many marks were new.
 */
export async function recordMarks(entries: MarkEntry[]): Promise<number> {
  // A transaction touches an item once: one person per transaction, each post at most once in it.
  const byPerson = new Map<string, MarkEntry[][]>();
  for (const e of entries) {
    const chunks = byPerson.get(e.userId) ?? [];
    byPerson.set(e.userId, chunks);
    const room = chunks.find((c) => c.length < PER_TRANSACTION && !c.some((o) => o.post.postId === e.post.postId));
    if (room) room.push(e);
    else chunks.push([e]);
  }
  const chunks = [...byPerson.values()].flat();
  let recorded = 0;
  await inPool(chunks, 4, async (chunk) => {
    try {
      await transact([...chunk.flatMap(markWrites), notErased(chunk[0]!.userId)]);
      recorded += chunk.length;
      return;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      // The check of the person is the last item: their erasure began, nothing of theirs is written.
      if (failedConditions(err).includes(chunk.length * 7)) return;
    }
    for (const e of chunk) {
      try {
        await transact([...markWrites(e), notErased(e.userId)]);
        recorded++;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    }
  });
  return recorded;
}
