import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { page } from '../db/paging.ts';
import { type TransactItem, transact, write } from '../db/table.ts';
import { Post, type PostItem } from '../feed/entities.ts';
import { companyValuesOf } from '../people/company-values.ts';
import { roster } from '../people/roster.ts';
import { companyFromRow } from '../people/roster-row.ts';
import { inPool } from '../util/in-pool.ts';
import { audienceIdOf, targetedPeople } from './audience-seam.ts';
import { PostSeen, ReachDay, ReachSlice, ReachTotal, SLICINGS } from './entities.ts';
import { setAndAdd, sliceValue, totalPlacement } from './marks.ts';

/**
 * `targeted` and `delivered` of a post, in all and per slice, recorded once in the background when the
 * post is published (its INSERT on the stream; the `reach-targets` consumer): the audience at publish
 * (audience-seam.ts) counted on the roster document (one Query and one object, CPU linear in the
 * company), each slice by the person's company values then. Written with SET (absolute values), so a
 * redelivered record writes the same again; the marks' counters (ADD) are never touched.
 *
 * - targeted: the people the post was for when it was published (docs/reach.md);
 * - delivered: those of them who could receive it then: an account signed in at least once
 *   (`active`), not only invited (`pending`).
 */
export const reachTargetFilters: Record<string, unknown>[] = [
  { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [Post.name] } } } },
  // A deleted post's reach goes with it (its roll-ups and everybody's marks on it).
  { eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: [Post.name] } } } },
];

export async function recordTargets(records: DynamoDBRecord[]): Promise<void> {
  for (const r of records) {
    const old =
      r.eventName === 'REMOVE' ? (r.dynamodb?.OldImage as Record<string, AttributeValue> | undefined) : undefined;
    const gone = old ? unmarshall(old as never) : undefined;
    if (gone?.entity === Post.name) await removeReach(String(gone.id));
  }
  const posts = records.flatMap((r) => {
    if (r.eventName !== 'INSERT') return [];
    const image = r.dynamodb?.NewImage as Record<string, AttributeValue> | undefined;
    const item = image ? unmarshall(image as never) : undefined;
    return Post.is(item) ? [item] : [];
  });
  if (!posts.length) return;
  const company = await roster();
  for (const post of posts) await targetsOf(post, company);
}

async function targetsOf(post: PostItem, company: Awaited<ReturnType<typeof roster>>): Promise<void> {
  const people = await targetedPeople(post, company);
  const counts = new Map<
    string,
    { by: (typeof SLICINGS)[number]; value: string; targeted: number; delivered: number }
  >();
  let delivered = 0;
  for (const p of people) {
    const values = Array.isArray(p.company) ? companyFromRow(p.company) : companyValuesOf({ managerId: p.managerId });
    const reached = p.status === 'active' ? 1 : 0;
    delivered += reached;
    for (const by of SLICINGS) {
      const value = sliceValue(values, by);
      const key = `${by}\u0000${value}`;
      const c = counts.get(key) ?? { by, value, targeted: 0, delivered: 0 };
      c.targeted++;
      c.delivered += reached;
      counts.set(key, c);
    }
  }
  const postId = post.id;
  // 100 slices a transaction (each item once): a few requests however many slice values.
  const writes = [...counts.values()].map((c) =>
    ReachSlice.update(
      { postId, by: c.by, value: c.value },
      setAndAdd(
        { entity: ReachSlice.name, postId, by: c.by, value: c.value, targeted: c.targeted, delivered: c.delivered },
        {},
      ),
    ),
  );
  await inPool(chunks(writes, 100), 4, async (chunk) => void (await transact(chunk)));
  const placed = { postId, publishedAt: post.createdAt, audienceId: audienceIdOf(post) };
  // Last: `targetedAt` says every slice is written. ADD 0 puts a post nobody has seen yet on the rankings.
  await write(
    ReachTotal.update(
      { postId },
      setAndAdd(
        {
          ...totalPlacement(placed),
          targeted: people.length,
          delivered,
          targetedAt: new Date().toISOString(),
        },
        { seen: 0, gsi6sk: 0, ...(placed.audienceId ? { gsi7sk: 0 } : {}) },
      ),
    ),
    { returnValues: 'NONE' },
  );
}

/** Every roll-up of a deleted post and every mark on it, page by page (background). */
async function removeReach(postId: string): Promise<void> {
  const rollUps = [
    ...(await ReachDay.queryAll({ key: { postId } })),
    ...(await ReachSlice.queryAll({ key: { postId } })),
  ];
  await inPool(
    chunks(
      rollUps.map((i) => ReachSlice.removeStored(i)),
      100,
    ),
    4,
    async (c) => void (await transact(c)),
  );
  await write(ReachTotal.remove({ postId }), { returnValues: 'NONE' });
  let cursor: string | undefined;
  do {
    const found = await PostSeen.query({ key: { postId } }, page({ limit: 100, cursor }));
    await transact(found.items.map((i) => PostSeen.removeStored(i)));
    cursor = found.nextCursor ?? undefined;
  } while (cursor);
}

const chunks = (items: TransactItem[], size: number): TransactItem[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
