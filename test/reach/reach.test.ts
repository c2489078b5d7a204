import { afterAll, describe, expect, it } from 'vitest';
import { PostSeen, ReachSlice, ReachTotal } from '../../shared/reach/entities.ts';
import { suppress } from '../../shared/reach/reach.ts';
import { expectStatus, type Person, person } from '../people/helpers.ts';
import { admin, api, settled, uniq } from '../support/api.ts';

/**
 * Reach (docs/reach.md; issue 48 items 4 and 5) through the local runtime. The runtime's table holds
 * other files' people too (every untargeted post targets them all), so the slices asserted exactly are
 * this file's own locations; the suppression rule itself is asserted exactly on the pure function.
 */

const today = () => new Date().toISOString().slice(0, 10);

function shuffled<T>(xs: T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function inBatches<T>(xs: T[], size: number, fn: (x: T) => Promise<unknown>) {
  for (let i = 0; i < xs.length; i += size) await Promise.all(xs.slice(i, i + size).map(fn));
}

async function adminCall(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  const a = await admin();
  return api(method, path, { token: a.token, ...(body === undefined ? {} : { body }), headers });
}

const seen = (p: Person, postIds: string[]) => api('POST', '/posts/seen', { token: p.token, body: { postIds } });
const reachOf = async (postId: string, by?: string) =>
  expectStatus(await adminCall('GET', `/admin/posts/${postId}/reach${by ? `?by=${by}` : ''}`), 200, 'reach');

afterAll(async () => {
  // The company's settings back to their defaults for the files after this one.
  await adminCall('PATCH', '/admin/settings/reach', { readReceipts: false, suppressionThreshold: 5 });
});

describe('suppression of small slices', () => {
  it('withholds a slice under the threshold, and the next smallest when it would be the only one withheld', () => {
    const s = (value: string, targeted: number) => ({ value, targeted });
    // One slice of 4: withheld with the next smallest (16), so total minus the shown (30) is 20, two slices.
    const one = suppress([s('A', 30), s('B', 16), s('C', 4)], 5);
    expect(one.shown.map((x) => x.value)).toEqual(['A']);
    expect(one.suppressed).toBe(2);
    // Two withheld that together are still under the threshold: one more goes.
    const two = suppress([s('A', 30), s('B', 9), s('C', 1), s('D', 2)], 5);
    expect(two.shown.map((x) => x.value)).toEqual(['A']);
    expect(two.suppressed).toBe(3);
    // Withheld together at or over the threshold: the rest shown.
    const enough = suppress([s('A', 30), s('B', 9), s('C', 3), s('D', 4)], 5);
    expect(enough.shown.map((x) => x.value)).toEqual(['A', 'B']);
    // Nothing small: nothing withheld; a threshold of 3 shows a slice of 4.
    expect(suppress([s('A', 30), s('C', 4)], 5).suppressed).toBe(2);
    expect(suppress([s('A', 30), s('C', 4)], 3)).toEqual({ shown: [s('A', 30), s('C', 4)], suppressed: 0 });
  });
});

describe('reach of a post', () => {
  it('counts exactly after 50 people see it in random order, twice; per slice with a slice of 4 suppressed', async () => {
    const tag = uniq();
    const big = `Big ${tag}`;
    const mid = `Mid ${tag}`;
    const small = `Small ${tag}`;
    const boss = await person({ name: `Boss ${tag}` }, { signIn: false });
    // The small location's four report to a manager of their own: a slice of 4 by manager too.
    const smallBoss = await person({ name: `Small boss ${tag}` }, { signIn: false });
    const where = [...Array(30).fill(big), ...Array(16).fill(mid), ...Array(4).fill(small)] as string[];
    const readers: (Person & { location: string })[] = [];
    await inBatches(
      where.map((location, i) => ({ location, i })),
      5,
      async ({ location, i }) => {
        const managerId = location === small ? smallBoss.id : boss.id;
        const p = await person({ name: `Reader ${i} ${tag}`, managerId }, { profile: { location } });
        readers.push({ ...p, location });
      },
    );
    const a = await admin();
    const post = expectStatus(
      await api('POST', '/posts', { token: a.token, body: { content: `Reach ${tag}` } }),
      201,
      'post',
    );
    const other = expectStatus(
      await api('POST', '/posts', { token: a.token, body: { content: `Less read ${tag}` } }),
      201,
      'post',
    );
    await settled();

    const before = await reachOf(post.id, 'location');
    expect(before.seen).toBe(0);
    expect(before.targetedAt).not.toBeNull();
    expect(before.targeted).toBeGreaterThanOrEqual(50);

    // Twice, each time in another random order, with an unknown id and a repeat in the batch.
    const unknown = '0000000000000000000000';
    for (let round = 0; round < 2; round++)
      await inBatches(shuffled(readers), 10, async (r) => {
        const res = await seen(r, [post.id, unknown, post.id]);
        expect(res.status, res.text).toBe(204);
      });
    // A few also see the other post.
    await inBatches(readers.slice(0, 3), 3, (r) => seen(r, [other.id]));

    const after = await reachOf(post.id, 'location');
    expect(after.seen).toBe(50);
    expect(after.targeted).toBe(before.targeted);
    expect(after.days).toEqual([{ day: today(), seen: 50, reacted: 0, commented: 0, acknowledged: 0 }]);
    const slice = (v: string) => after.slices.find((s: { value: string }) => s.value === v);
    expect(slice(big)).toMatchObject({ targeted: 30, delivered: 30, seen: 30 });
    expect(slice(mid)).toMatchObject({ targeted: 16, delivered: 16, seen: 16 });
    // The slice of 4 is not shown, and what is not shown is never that slice alone.
    expect(slice(small)).toBeUndefined();
    expect(after.suppressed).toBeGreaterThanOrEqual(2);
    const shownTargeted = after.slices.reduce((n: number, s: { targeted: number }) => n + s.targeted, 0);
    expect(after.targeted - shownTargeted).toBeGreaterThanOrEqual(after.threshold);
    expect(after.targeted - shownTargeted).not.toBe(4);
    for (const s of after.slices) expect(s.targeted).toBeGreaterThanOrEqual(after.threshold);
    // By manager: the 46 are one slice; the 4 under their own manager are withheld, and with them at
    // least the people without a manager (the two managers among them), so the 4 cannot be derived.
    const byManager = await reachOf(post.id, 'manager');
    const bySlice = (v: string) => byManager.slices.find((s: { value: string }) => s.value === v);
    expect(bySlice(boss.id)).toMatchObject({ targeted: 46, delivered: 46, seen: 46 });
    expect(bySlice(smallBoss.id)).toBeUndefined();
    expect(byManager.suppressed).toBeGreaterThanOrEqual(2);
    // One mark per person, nobody else's: exactly the 50 readers' records.
    const marks = await PostSeen.queryAll({ key: { postId: post.id } });
    expect(marks.map((m) => m.userId).sort()).toEqual(readers.map((r) => r.id).sort());

    // Reactions, comments: the first counts, taking back and repeating does not count again.
    const [r1, r2, r3] = readers;
    for (const r of [r1!, r2!]) {
      expectStatus(await api('POST', `/posts/${post.id}/upvote`, { token: r.token, body: { reaction: 'love' } }), 200);
      expectStatus(await api('DELETE', `/posts/${post.id}/upvote`, { token: r.token }), 200);
      expectStatus(await api('POST', `/posts/${post.id}/upvote`, { token: r.token, body: {} }), 200);
    }
    for (const content of ['one', 'two'])
      expectStatus(await api('POST', `/posts/${post.id}/comments`, { token: r3!.token, body: { content } }), 201);
    await settled();
    const engaged = await reachOf(post.id);
    expect(engaged).toMatchObject({ seen: 50, reacted: 2, commented: 1, acknowledged: 0, slices: [], suppressed: 0 });

    // Rankings of today: the most seen first, a page at a time, and as CSV.
    const q = `/admin/reach?from=${today()}&to=${today()}`;
    const first = expectStatus(await adminCall('GET', `${q}&limit=1`), 200, 'rankings');
    expect(first.items.map((r: { postId: string }) => r.postId)).toEqual([post.id]);
    expect(first.items[0]).toMatchObject({ seen: 50, reacted: 2, commented: 1 });
    const second = expectStatus(
      await adminCall('GET', `${q}&limit=1&cursor=${encodeURIComponent(first.nextCursor)}`),
      200,
      'rankings',
    );
    expect(second.items.map((r: { postId: string }) => r.postId)).toEqual([other.id]);
    expect(second.items[0].seen).toBe(3);
    const grouped = expectStatus(await adminCall('GET', `${q}&limit=1&groupBy=location`), 200, 'rankings');
    expect(grouped.items[0].slices.find((s: { value: string }) => s.value === small)).toBeUndefined();
    const csv = await adminCall('GET', `/admin/reach.csv?from=${today()}&to=${today()}&limit=2`);
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('postId,publishedAt,audienceId,targeted,delivered,seen,reacted,commented,acknowledged');
    expect(lines[1]).toContain(`${post.id},`);
    expect(lines[1]?.split(',')[5]).toBe('50');
    // Bad periods and slicings: 400.
    expect((await adminCall('GET', `/admin/reach?from=${today()}&to=2000-01-01`)).status).toBe(400);
    expect((await adminCall('GET', `/admin/reach?from=2026-01-01&to=2026-03-01`)).status).toBe(400);
    expect((await adminCall('GET', `/admin/reach?from=2026-02-30&to=2026-03-02`)).status).toBe(400);
    expect((await adminCall('GET', `/admin/posts/${post.id}/reach?by=shoe`)).status).toBe(400);
    // Members may not read reach.
    expect((await api('GET', `/admin/posts/${post.id}/reach`, { token: r1!.token })).status).toBe(403);
    const total = await ReachTotal.get({ postId: post.id }, { consistent: true });
    expect(total?.seen).toBe(50);
  }, 240_000);

  it('counts a must-read acknowledgement once; refuses bad bodies', async () => {
    const a = await admin();
    const readers = await Promise.all([1, 2, 3].map((i) => person({ name: `Ack ${i} ${uniq()}` })));
    const post = expectStatus(
      await api('POST', '/posts', {
        token: a.token,
        body: { content: `Must ${uniq()}`, isAnnouncement: true, acknowledgement: { required: true } },
      }),
      201,
    );
    for (const r of readers) {
      expectStatus(await api('POST', `/posts/${post.id}/acknowledge`, { token: r.token }), 200);
      expectStatus(await api('POST', `/posts/${post.id}/acknowledge`, { token: r.token }), 200);
    }
    await settled();
    expect((await reachOf(post.id)).acknowledged).toBe(3);
    const r = readers[0]!;
    expect((await seen(r, [])).status).toBe(400);
    expect((await seen(r, Array(101).fill(post.id))).status).toBe(400);
    expect((await seen(r, ['not-an-id'])).status).toBe(400);
    expect((await api('POST', '/posts/seen', { token: r.token, body: { postIds: [post.id], x: 1 } })).status).toBe(400);
    // The author's own view is not counted.
    expect((await seen({ ...r, token: a.token }, [post.id])).status).toBe(204);
    expect((await reachOf(post.id)).seen).toBe(0);
  });
});

describe('read receipts', () => {
  it('off by default; on by the setting, to the author only; an opted-out reader counts but is not listed', async () => {
    const tag = uniq();
    const author = await person({ name: `Author ${tag}` });
    const [r1, r2, r3] = await Promise.all([1, 2, 3].map((i) => person({ name: `Receipt ${i} ${tag}` })));
    const post = expectStatus(
      await api('POST', '/posts', { token: author.token, body: { content: `Receipts ${tag}` } }),
      201,
    );
    const settings = expectStatus(await adminCall('GET', '/admin/settings/reach'), 200);
    expect(settings).toMatchObject({ readReceipts: false, suppressionThreshold: 5 });
    expect(expectStatus(await api('GET', '/users/me/read-receipts', { token: r2!.token }), 200)).toMatchObject({
      optedOut: false,
    });
    expectStatus(await api('PUT', '/users/me/read-receipts', { token: r2!.token, body: { optedOut: true } }), 200);
    for (const r of [r1!, r2!, r3!]) expect((await seen(r, [post.id])).status).toBe(204);
    const list = () => api('GET', `/posts/${post.id}/seen-by`, { token: author.token });

    expect((await list()).status).toBe(403);
    expect((await adminCall('PATCH', '/admin/settings/reach', { suppressionThreshold: 2 })).status).toBe(400);
    expectStatus(await adminCall('PATCH', '/admin/settings/reach', { readReceipts: true }), 200);
    const on = expectStatus(await list(), 200);
    expect(on.items.map((i: { person: { id: string } }) => i.person.id).sort()).toEqual([r1!.id, r3!.id].sort());
    // Not the author: 403, even a super admin; an unknown post 404.
    expect((await api('GET', `/posts/${post.id}/seen-by`, { token: r1!.token })).status).toBe(403);
    expect((await adminCall('GET', `/posts/${post.id}/seen-by`)).status).toBe(403);
    expect((await api('GET', '/posts/0000000000000000000000/seen-by', { token: author.token })).status).toBe(404);
    // Paged: one at a time, the opted-out reader never shows.
    const firstPage = expectStatus(await api('GET', `/posts/${post.id}/seen-by?limit=1`, { token: author.token }), 200);
    expect(firstPage.nextCursor).not.toBeNull();
    // They count in the totals.
    expect((await reachOf(post.id)).seen).toBe(3);
    // Opting back in shows them again.
    expectStatus(await api('PUT', '/users/me/read-receipts', { token: r2!.token, body: { optedOut: false } }), 200);
    expect(expectStatus(await list(), 200).items).toHaveLength(3);
    expectStatus(await adminCall('PATCH', '/admin/settings/reach', { readReceipts: false }), 200);
    expect((await list()).status).toBe(403);

    // Deleting the post takes its reach with it: its roll-ups and everybody's marks on it.
    expect((await api('DELETE', `/posts/${post.id}`, { token: author.token })).status).toBe(204);
    await settled();
    expect(await PostSeen.queryAll({ key: { postId: post.id } })).toEqual([]);
    expect(await ReachTotal.get({ postId: post.id }, { consistent: true })).toBeUndefined();
    expect(await ReachSlice.queryAll({ key: { postId: post.id } })).toEqual([]);
  });
});
