import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb.ts';
import { getItem, putMany, transact } from '../db/table.ts';
import { runMigrations } from '../migrations/runner.ts';
import { listDirectory } from './directory.ts';
import { directoryRowsMigration, directoryShardsRemovedMigration } from './directory-migrations.ts';
import {
  DirectoryPerson,
  DirectoryShard,
  DirectoryShardPosts,
  DirectoryTerm,
  User,
  type UserFields,
} from './entities.ts';
import { shardOf } from './listing.ts';
import { postCountWrites } from './post-count.ts';
import { blankProfile } from './users.ts';

/**
 * `0013-directory-rows` and `0014-directory-shards-removed` on what 0.3.0 stored (profiles and the
 * directory shards, no rows, no terms), in a table of their own: `GET /people` reads the shards until
 * 0013 is done, then the rows; a post counted between the upgrade and the migration is counted once;
 * the shards are deleted; running both again changes nothing.
 */
const table = `directory-migrations-${randomUUID().slice(0, 8)}`;
const savedTable = process.env.TABLE_NAME;

const person = (id: string, fields: Partial<UserFields> = {}): UserFields => ({
  ...blankProfile(),
  id,
  email: `${id}@example.com`,
  name: `Person ${id}`,
  role: 'member',
  status: 'active',
  joinedAt: '2025-01-01T00:00:00.000Z',
  rev: 3,
  postCount: 2,
  ...fields,
});
const people = [
  person('a', { name: 'Ann Old', title: 'Pilot', bio: 'Flies kites', skills: ['Kites'] }),
  person('b', { name: 'Bo Old', title: 'Pilot', postCount: 5 }),
  person('c', { name: 'Cy Old', status: 'deactivated', title: 'Pilot' }),
];
/** A 0.3.0 shard row: name, title, location, bio, skills, teamId, status, joinedAt. */
const shardRow = (u: UserFields) => [u.name, u.title, u.location, u.bio, u.skills, u.teamId, u.status, u.joinedAt];

const ids = async (q: Parameters<typeof listDirectory>[0]) => (await listDirectory(q)).users.map((u) => u.id).sort();

describe('0013-directory-rows and 0014-directory-shards-removed', () => {
  beforeAll(async () => {
    process.env.TABLE_NAME = table;
    await ensureTable(new DynamoDBClient({ region: process.env.AWS_REGION }), table, { stream: false });
    const shards = new Map<number, Record<string, unknown>>();
    for (const u of people.filter((p) => p.status !== 'deactivated')) {
      const s = shards.get(shardOf(u.id)) ?? {};
      s[`row_${u.id}`] = shardRow(u);
      shards.set(shardOf(u.id), s);
    }
    await putMany([
      // What 0.3.0 stored: the profiles (no row, no terms) and the shards (rows, post counts).
      ...people.map((u) => User.item(u)),
      ...[...shards].map(([shard, rows]) => DirectoryShard.item({ shard, ...rows })),
      ...people.map((u) => DirectoryShardPosts.item({ shard: shardOf(u.id), [`posts_${u.id}`]: u.postCount })),
    ]);
  });
  afterAll(() => {
    process.env.TABLE_NAME = savedTable;
  });

  it('reads the shards until 0013 has run', async () => {
    expect(await ids({ sort: 'name', q: 'KITES', limit: 20 })).toEqual(['a']);
    expect(await ids({ sort: 'name', role: 'pilot', limit: 20 })).toEqual(['a', 'b']);
    // A post after the upgrade, before the migration: counted on the profile, the shard, and a row holding only the count.
    await transact(await postCountWrites('b', 1));
    expect(await DirectoryPerson.get({ id: 'b' }, { consistent: true })).toMatchObject({ postCount: 1 });
  });

  it('builds every row and the terms of listed people, then deletes the shards', async () => {
    const { complete, states } = await runMigrations([directoryRowsMigration, directoryShardsRemovedMigration], {
      budgetMs: 120_000,
    });
    expect(complete).toBe(true);
    expect(states.map((s) => [s.id, s.status, s.error ?? null])).toEqual([
      ['0013-directory-rows', 'done', null],
      ['0014-directory-shards-removed', 'done', null],
    ]);
    const rows = await DirectoryPerson.getMany([{ id: 'a' }, { id: 'b' }, { id: 'c' }], { consistent: true });
    expect(rows.map((r) => [r?.id, r?.status, r?.postCount, r?.rev])).toEqual([
      ['a', 'active', 2, 3],
      ['b', 'active', 6, 3],
      ['c', 'deactivated', 2, 3],
    ]);
    const terms = async (userId: string) =>
      (await DirectoryTerm.queryAll({ key: { userId }, consistent: true })).map((t) => t.term);
    expect(await terms('a')).toEqual(expect.arrayContaining(['s:kites', 't:pilot', 'q:kit', 'q:ann']));
    expect(await terms('c')).toEqual([]);
    for (const u of people) {
      expect(await getItem(DirectoryShard.key({ shard: shardOf(u.id) }), true)).toBeUndefined();
      expect(await getItem(DirectoryShardPosts.key({ shard: shardOf(u.id) }), true)).toBeUndefined();
    }
  }, 180_000); // the runs are given 120 s (budgetMs): the test waits for them on a loaded machine

  it('then answers from the rows, and writes no shard any more', async () => {
    expect(await ids({ sort: 'name', q: 'KITES', limit: 20 })).toEqual(['a']);
    expect(await ids({ sort: 'name', role: 'pilot', limit: 20 })).toEqual(['a', 'b']);
    const byPosts = await listDirectory({ sort: 'posts', role: 'pilot', limit: 20 });
    expect(byPosts.users.map((u) => [u.id, u.postCount])).toEqual([
      ['b', 6],
      ['a', 2],
    ]);
    await transact(await postCountWrites('a', 1));
    expect(await getItem(DirectoryShardPosts.key({ shard: shardOf('a') }), true)).toBeUndefined();
  });

  it('changes nothing when run again from scratch', async () => {
    const before = await DirectoryPerson.getMany([{ id: 'a' }, { id: 'b' }, { id: 'c' }], { consistent: true });
    const again = [
      { ...directoryRowsMigration, id: '0013-directory-rows-again' },
      { ...directoryShardsRemovedMigration, id: '0014-directory-shards-removed-again' },
    ];
    const { states } = await runMigrations(again, { budgetMs: 60_000 });
    expect(states.map((s) => [s.status, s.changed])).toEqual([
      ['done', 0],
      ['done', 0],
    ]);
    expect(await DirectoryPerson.getMany([{ id: 'a' }, { id: 'b' }, { id: 'c' }], { consistent: true })).toEqual(
      before,
    );
  });
});
