import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb.ts';
import { getItem, type Item, isConditionFailure, putMany, transact } from '../db/table.ts';
import { runMigrations } from '../migrations/runner.ts';
import { derivedWrites, rowsOf } from './derived-from-person.ts';
import { DirectoryShard, DirectoryShardPosts, type UserFields } from './entities.ts';
import { shardOf, shardPostCount } from './listing.ts';
import { directoryAttributeNamesMigration, directoryAttributeNamesWrites } from './migrations.ts';
import { postCountWrites } from './post-count.ts';

/**
 * `0008-directory-attribute-names` on directory shards in the 0.1.0 form (`r_<userId>` rows,
 * `p_<userId>` post counts), in a table of their own, with what the current code wrote since the
 * upgrade (`row_`, `posts_` counted from 0) beside them.
 */
const table = `people-migrations-${randomUUID().slice(0, 8)}`;
const savedTable = process.env.TABLE_NAME;

/** The shard of `b`, whose post the current code counts during the test (the others' shards do not matter). */
const shard = shardOf('b');
const rowsKey = DirectoryShard.key({ shard });
const postsKey = DirectoryShardPosts.key({ shard });
const row = (name: string) => [name, 'Engineer', 'Oslo', '', ['go'], null, 'active', '2025-01-01T00:00:00.000Z'];
/** More old counts than one update moves (25), so the item takes several. */
const many = Array.from({ length: 30 }, (_, i) => `m${String(i).padStart(2, '0')}`);

const stored = async (key: { pk: string; sk: string }) => (await getItem(key, true))!;
const names = (item: Item, prefix: string) =>
  Object.keys(item)
    .filter((k) => k.startsWith(prefix))
    .sort();

describe('0008-directory-attribute-names', () => {
  beforeAll(async () => {
    process.env.TABLE_NAME = table;
    await ensureTable(new DynamoDBClient({ region: process.env.AWS_REGION }), table, { stream: false });
    await putMany([
      // a: only the 0.1.0 row; b: a row written since the upgrade beside the old one; c: current only.
      {
        ...rowsKey,
        entity: 'DirectoryShard',
        shard,
        r_a: row('Ann'),
        r_b: row('Bo (old)'),
        row_b: row('Bo'),
        row_c: row('Cy'),
      },
      {
        ...postsKey,
        entity: 'DirectoryShardPosts',
        shard,
        p_a: 4,
        p_b: 2,
        posts_b: 1, // a post since the upgrade, counted from 0
        posts_c: 5,
        ...Object.fromEntries(many.map((id, i) => [`p_${id}`, i + 1])),
      },
    ]);
  });
  afterAll(() => {
    process.env.TABLE_NAME = savedTable;
  });

  it('is read in both forms until it has run', async () => {
    const rows = rowsOf(await stored(rowsKey));
    expect(rows.map((r) => [r.id, r.name]).sort()).toEqual([
      ['a', 'Ann'],
      ['b', 'Bo'],
      ['c', 'Cy'],
    ]);
    const posts = await stored(postsKey);
    expect(['a', 'b', 'c', 'z'].map((id) => shardPostCount(posts, id))).toEqual([4, 3, 5, 0]);
  });

  it("removes a person's 0.1.0 row with their row", () => {
    const person: UserFields = {
      id: 'a',
      name: 'Ann',
      status: 'active',
      joinedAt: '2025-01-01T00:00:00.000Z',
    } as UserFields;
    for (const after of [
      { ...person, status: 'deactivated' },
      { ...person, name: 'Anna' },
    ] as UserFields[]) {
      const shardWrite = derivedWrites(person, after, { actorId: null }).find((w) => w.Update?.Key?.sk === 'ROWS');
      expect(Object.values(shardWrite?.Update?.ExpressionAttributeNames ?? {})).toContain('r_a');
    }
  });

  it('moves rows and adds post counts, a concurrent post counted once', async () => {
    // Writes computed from a read, a post counted in between: the ADD is not lost, the old count not doubled.
    const read = await stored(postsKey);
    const writes = directoryAttributeNamesWrites(read);
    await transact(await postCountWritesOnShard('b', 1));
    await transact(writes);
    // Applying writes of a stale read again fails on its condition: nothing is counted twice.
    await expect(transact(writes).catch((e) => Promise.reject(isConditionFailure(e)))).rejects.toBe(true);

    const { complete, states } = await runMigrations([directoryAttributeNamesMigration], { budgetMs: 60_000 });
    expect(complete).toBe(true);
    expect(states[0]).toMatchObject({ status: 'done', changed: 2, error: null });

    const rows = await stored(rowsKey);
    expect(names(rows, 'r_')).toEqual([]);
    expect(rows).toMatchObject({ row_a: row('Ann'), row_b: row('Bo'), row_c: row('Cy') });
    const posts = await stored(postsKey);
    expect(names(posts, 'p_')).toEqual([]);
    expect(posts).toMatchObject({ posts_a: 4, posts_b: 4, posts_c: 5 });
    for (const [i, id] of many.entries()) expect(posts[`posts_${id}`]).toBe(i + 1);
  });

  it('changes nothing when run again from scratch', async () => {
    expect(directoryAttributeNamesWrites(await stored(rowsKey))).toEqual([]);
    expect(directoryAttributeNamesWrites(await stored(postsKey))).toEqual([]);
    const fresh = { ...directoryAttributeNamesMigration, id: '0009-directory-attribute-names-again' };
    const { states } = await runMigrations([fresh], { budgetMs: 60_000 });
    expect(states[0]).toMatchObject({ status: 'done', changed: 0 });
  });
});

/** A post of `userId` counted in their shard only (`postCountWrites` without the profile, absent here). */
const postCountWritesOnShard = async (userId: string, delta: number) =>
  (await postCountWrites(userId, delta)).filter((w) => w.Update?.Key?.sk === 'POSTS');
