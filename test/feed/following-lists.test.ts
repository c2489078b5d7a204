import { describe, expect, it } from 'vitest';
import { putMany, transact } from '../../shared/db/table.ts';
import { Follow, FollowedPost } from '../../shared/feed/entities.ts';
import { FOLLOWING_LISTS_MIGRATION } from '../../shared/migrations/following-lists.ts';
import { migrationById } from '../../shared/registry/migrations.ts';
import { api, newMember, settled, uniq } from '../support/api.ts';
import { createPost, waitFor } from './helpers.ts';

/**
 * `GET /posts?following=true` from each follower's own list (shared/feed/following-lists.ts): kept by
 * the `following-lists` consumer of the local runtime's stream, read in one Query whatever the number of
 * people followed; posts the consumer has not copied yet are found in the feed's head.
 */
const following = async (token: string, limit = 50) => {
  const res = await api('GET', `/posts?following=true&limit=${limit}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body as { items: { id: string; author: { id: string } }[]; nextCursor: string | null };
};
const idsOf = async (token: string) => (await following(token)).items.map((p) => p.id);
const listed = (userId: string, postId: string) => FollowedPost.get({ userId, postId }, { consistent: true });
const inList = (userId: string, postId: string) =>
  waitFor(async () => ((await listed(userId, postId)) ? true : undefined), 15_000);
const notInList = (userId: string, postId: string) =>
  waitFor(async () => ((await listed(userId, postId)) ? undefined : true), 15_000);

describe('following lists', () => {
  it('a followed person’s post reaches the follower’s list, and is listed at once, before and after', async () => {
    const [a, b, c] = [await newMember(), await newMember(), await newMember()];
    expect((await api('PUT', `/people/${b.id}/follow`, { token: a.token })).status).toBe(204);
    const pb = await createPost(b.token, { content: `followed ${uniq()}` });
    const pc = await createPost(c.token, { content: `not followed ${uniq()}` });
    // At once: from the feed's head while the consumer has not copied it yet.
    const first = await idsOf(a.token);
    expect(first).toContain(pb.id);
    expect(first).not.toContain(pc.id);
    await inList(a.id, pb.id);
    expect(await listed(a.id, pc.id)).toBeUndefined();
    expect(await listed(c.id, pb.id)).toBeUndefined(); // c follows nobody
  });

  it('finds a followed post behind more than the feed head’s worth of others', async () => {
    const [a, b, c] = [await newMember(), await newMember(), await newMember()];
    expect((await api('PUT', `/people/${b.id}/follow`, { token: a.token })).status).toBe(204);
    const pb = await createPost(b.token, { content: `deep ${uniq()}` });
    await inList(a.id, pb.id);
    for (let i = 0; i < 55; i++) await createPost(c.token, { content: `noise ${i} ${uniq()}` });
    const page = await following(a.token, 5);
    expect(page.items.map((p) => p.id)).toContain(pb.id);
    expect(page.items.every((p) => p.author.id === b.id)).toBe(true);
  });

  it('a new follow brings the person’s earlier posts; an unfollow takes them away at once, then from the list', async () => {
    const [a, d, e] = [await newMember(), await newMember(), await newMember()];
    const older = [];
    for (let i = 0; i < 3; i++) older.push(await createPost(d.token, { content: `earlier ${i} ${uniq()}` }));
    for (let i = 0; i < 55; i++) await createPost(e.token, { content: `noise ${i} ${uniq()}` });
    expect((await api('PUT', `/people/${d.id}/follow`, { token: a.token })).status).toBe(204);
    for (const p of older) await inList(a.id, p.id);
    expect(await idsOf(a.token)).toEqual(older.map((p) => p.id).reverse());
    expect((await api('DELETE', `/people/${d.id}/follow`, { token: a.token })).status).toBe(204);
    expect(await idsOf(a.token)).toEqual([]);
    for (const p of older) await notInList(a.id, p.id);
  });

  it('GET /_local/settled answers once the consumers have delivered what was written before it, with no polling', async () => {
    const [a, d] = [await newMember(), await newMember()];
    const posts = [];
    for (let i = 0; i < 3; i++) posts.push(await createPost(d.token, { content: `settled ${i} ${uniq()}` }));
    expect((await api('PUT', `/people/${d.id}/follow`, { token: a.token })).status).toBe(204);
    await settled();
    for (const p of posts) expect(await listed(a.id, p.id)).toBeDefined();
  });

  it('a deleted post leaves every follower’s list; a bystander’s list keeps its own', async () => {
    const [a, x, b, other] = [await newMember(), await newMember(), await newMember(), await newMember()];
    for (const f of [a, x]) expect((await api('PUT', `/people/${b.id}/follow`, { token: f.token })).status).toBe(204);
    expect((await api('PUT', `/people/${other.id}/follow`, { token: x.token })).status).toBe(204);
    const gone = await createPost(b.token, { content: `to delete ${uniq()}` });
    const kept = await createPost(other.token, { content: `kept ${uniq()}` });
    await inList(a.id, gone.id);
    await inList(x.id, gone.id);
    await inList(x.id, kept.id);
    expect((await api('DELETE', `/posts/${gone.id}`, { token: b.token })).status).toBe(204);
    await notInList(a.id, gone.id);
    await notInList(x.id, gone.id);
    expect(await listed(x.id, kept.id)).toBeDefined();
  });

  it('a follow stored before 0.4.0 (no index) gets its list when the 0012 migration indexes it', async () => {
    const [a, b] = [await newMember(), await newMember()];
    const pb = await createPost(b.token, { content: `before the index ${uniq()}` });
    // As 0.3.0 stored it: no gsi1 attributes (its INSERT is not a new follow to the consumer).
    const { gsi1pk, gsi1sk, ...legacy } = Follow.item({
      userId: a.id,
      followingId: b.id,
      actorId: a.id,
      createdAt: new Date().toISOString(),
    }) as Record<string, unknown>;
    expect(gsi1pk).toBeDefined();
    await putMany([legacy as never]);
    await settled();
    expect(await listed(a.id, pb.id)).toBeUndefined();
    const migration = migrationById(FOLLOWING_LISTS_MIGRATION)!;
    const writes = await migration.migrate(legacy as never);
    expect(writes.length).toBeGreaterThan(0);
    await transact(writes);
    await inList(a.id, pb.id);
    expect(
      await migration.migrate((await Follow.get({ userId: a.id, followingId: b.id }, { consistent: true }))!),
    ).toEqual([]);
    void gsi1sk;
  });
});
