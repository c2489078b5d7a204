import { describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { ScheduledPost } from '../../shared/feed/entities.ts';
import { listScheduledPosts, publishDuePosts, scheduledViews } from '../../shared/feed/scheduled-posts.ts';
import { admin, api, baseUrl, newMember } from '../support/api.ts';
import { isChange, openSse } from '../support/sse.ts';
import { createPost, future, notificationsOf, waitFor } from './helpers.ts';

/**
 * Posts scheduled for later, through the local runtime. The tests' runtime runs no schedules: the
 * publishing schedule's work (`publishDuePosts`, every minute deployed, every 2 s under `npm start`) is
 * run here once the moment has passed.
 */
const publishAfter = async (publishAt: string) => {
  await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(publishAt) - Date.now() + 50)));
  return publishDuePosts();
};

const schedule = (token: string, body: Record<string, unknown>) => api('POST', '/posts', { token, body });
/** A must-read announcement scheduled for `publishAt`, due at `dueAt`. */
const scheduleMustRead = (token: string, publishAt: string, dueAt: string) =>
  schedule(token, { content: 'Read me', isAnnouncement: true, acknowledgement: { required: true, dueAt }, publishAt });

describe('scheduled posts', () => {
  it('stays with its author until its moment, then is a post written then, everywhere at once', async () => {
    const [author, reader, mentioned] = [await newMember(), await newMember(), await newMember()];
    const publishAt = future(4_000);
    const res = await schedule(author.token, { content: `Soon, @[${mentioned.id}] #launch`, publishAt });
    expect(res.status, res.text).toBe(201);
    const id = res.body.id as string;
    expect(res.body).toMatchObject({ publishAt: new Date(publishAt).toISOString(), createdAt: res.body.publishAt });
    expect(res.body.mentions.map((m: { id: string }) => m.id)).toEqual([mentioned.id]);

    // Hidden from everyone but its author: a 404, on no list, nobody told.
    expect((await api('GET', `/posts/${id}`, { token: reader.token })).status).toBe(404);
    expect((await api('GET', `/posts/${id}`, { token: (await admin()).token })).status).toBe(404);
    expect((await api('DELETE', `/posts/${id}`, { token: reader.token })).status).toBe(404);
    const listed = await api('GET', `/posts?authorId=${author.id}`, { token: reader.token });
    expect(listed.body.items ?? listed.body).not.toContainEqual(expect.objectContaining({ id }));
    expect((await notificationsOf(mentioned.token)).filter((n) => n.postId === id)).toEqual([]);
    const own = await api('GET', `/posts/${id}`, { token: author.token });
    expect(own.status).toBe(200);
    expect(own.body.publishAt).toBe(res.body.publishAt);
    const mine = await api('GET', '/users/me/scheduled-posts', { token: author.token });
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((p: { id: string }) => p.id)).toEqual([id]);
    expect((await api('GET', '/users/me/scheduled-posts', { token: reader.token })).body.items).toEqual([]);

    // Edited until published; its moment stays.
    const edited = await api('PATCH', `/posts/${id}`, {
      token: author.token,
      body: { content: `Launching now, @[${mentioned.id}] #launch` },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({
      content: `Launching now, @[${mentioned.id}] #launch`,
      publishAt: res.body.publishAt,
    });
    const moved = await api('PATCH', `/posts/${id}`, {
      token: author.token,
      body: { content: 'later', publishAt: future(60_000) },
    });
    expect(moved.status).toBe(400);

    const stream = await openSse(baseUrl(), reader.token);
    expect(stream.status).toBe(200);
    try {
      expect(await publishAfter(publishAt)).toBeGreaterThanOrEqual(1);
      // Published once: another run finds nothing of it left to do.
      await publishDuePosts();
      const read = await api('GET', `/posts/${id}`, { token: reader.token });
      expect(read.status).toBe(200);
      const post = read.body;
      expect(post.publishAt).toBeUndefined();
      expect(post).toMatchObject({ id, content: `Launching now, @[${mentioned.id}] #launch`, tags: ['launch'] });
      expect(post.createdAt).toBe(res.body.publishAt);
      await stream.next(
        isChange('post.created', (p) => p.postId === id),
        15_000,
      );
    } finally {
      stream.close();
    }
    // Listed, its mention told, off the author's schedule.
    const after = await api('GET', `/posts?authorId=${author.id}`, { token: reader.token });
    expect(JSON.stringify(after.body)).toContain(id);
    await waitFor(async () =>
      (await notificationsOf(mentioned.token)).some((n) => n.kind === 'mention' && n.postId === id) ? true : undefined,
    );
    expect((await api('GET', '/users/me/scheduled-posts', { token: author.token })).body.items).toEqual([]);
    expect(await ScheduledPost.get({ id }, { consistent: true })).toBeUndefined();
    // Now a post like any: PATCH takes no publishAt.
    expect(
      (await api('PATCH', `/posts/${id}`, { token: author.token, body: { content: 'x', publishAt: future(60_000) } }))
        .status,
    ).toBe(400);
  });

  it('publishes a scheduled must-read announcement with its acknowledgement, due after its moment', async () => {
    const a = await admin();
    const publishAt = future(3_000);
    const dueAt = future(2 * 86_400_000);
    // Its due date is checked against its moment: due before it is refused.
    const early = await scheduleMustRead(a.token, publishAt, future(2_000));
    expect(early.status).toBe(400);
    const res = await scheduleMustRead(a.token, publishAt, dueAt);
    expect(res.status, res.text).toBe(201);
    expect(res.body.acknowledgement).toMatchObject({ required: true, dueAt: new Date(dueAt).toISOString() });
    await publishAfter(publishAt);
    const reader = await newMember();
    const read = await api('GET', `/posts/${res.body.id}`, { token: reader.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      isAnnouncement: true,
      acknowledgement: { required: true, acknowledgedAt: null },
    });
    expect((await api('POST', `/posts/${res.body.id}/acknowledge`, { token: reader.token })).status).toBe(200);
  });

  it('refuses a moment in the past or more than a year ahead, and what a post would be refused for', async () => {
    const author = await newMember();
    for (const publishAt of [new Date(Date.now() - 1000).toISOString(), future(367 * 86_400_000), 'tomorrow']) {
      const res = await schedule(author.token, { content: 'when?', publishAt });
      expect(res.status, publishAt).toBe(400);
      expect(res.body.statusCode).toBe(400);
    }
    expect((await schedule(author.token, { content: '   ', publishAt: future(60_000) })).status).toBe(400);
    const poll = { question: 'Q?', options: ['a', 'b'], closesAt: future(30_000) };
    // Its poll must still be open at its moment.
    expect((await schedule(author.token, { poll, publishAt: future(60_000) })).status).toBe(400);
    expect((await api('GET', '/users/me/scheduled-posts', { token: author.token })).body.items).toEqual([]);
  });

  it('is deleted by its author before its moment and never published; one that cannot be published says why', async () => {
    const [author, reader, recipient] = [await newMember(), await newMember(), await newMember()];
    const gone = await schedule(author.token, { content: 'never mind', publishAt: future(3_000) });
    expect(gone.status).toBe(201);
    expect((await api('DELETE', `/posts/${gone.body.id}`, { token: author.token })).status).toBe(204);
    expect((await api('GET', `/posts/${gone.body.id}`, { token: author.token })).status).toBe(404);

    const thanksAt = future(3_000);
    const thanks = await schedule(author.token, {
      recognition: { recipientId: recipient.id, category: 'teamwork', message: 'thanks' },
      publishAt: thanksAt,
    });
    expect(thanks.status, thanks.text).toBe(201);
    const a = await admin();
    expect(
      (await api('PATCH', `/admin/members/${recipient.id}/status`, { token: a.token, body: { status: 'deactivated' } }))
        .status,
    ).toBe(200);
    await publishAfter(thanksAt);
    const list = (await api('GET', '/users/me/scheduled-posts', { token: author.token })).body.items;
    const failed = list.find((p: { id: string }) => p.id === thanks.body.id);
    expect(failed.scheduleFailure).toMatch(/recogni|recipient/i);
    expect((await api('GET', `/posts/${thanks.body.id}`, { token: reader.token })).status).toBe(404);
    expect((await api('GET', `/posts/${gone.body.id}`, { token: reader.token })).status).toBe(404);
    // A bystander's own post is untouched by the author's schedule.
    const own = await createPost(reader.token, { content: 'mine' });
    expect((await api('GET', `/posts/${own.id}`, { token: reader.token })).status).toBe(200);
  });
});

describe('scheduled posts that cannot publish', () => {
  it('never stop the others: a must-read whose author was demoted fails with its reason, its author told', async () => {
    const a = await admin();
    const boss = await newMember({ role: 'super_admin' });
    const [writer, reader] = [await newMember(), await newMember()];
    // The must-read is due first, the plain post after it, in the same run.
    const first = future(3_000);
    const second = future(3_500);
    const mustRead = await schedule(boss.token, {
      content: 'Read me when I am out',
      isAnnouncement: true,
      acknowledgement: { required: true },
      publishAt: first,
    });
    expect(mustRead.status, mustRead.text).toBe(201);
    const plain = await schedule(writer.token, { content: 'Mine, after it', publishAt: second });
    expect(plain.status, plain.text).toBe(201);
    const demoted = await api('PATCH', `/admin/members/${boss.id}/role`, { token: a.token, body: { role: 'member' } });
    expect(demoted.status, demoted.text).toBe(200);

    expect(await publishAfter(second)).toBeGreaterThanOrEqual(1);
    // The other post is published in the same run.
    expect((await api('GET', `/posts/${plain.body.id}`, { token: reader.token })).status).toBe(200);
    // The must-read is kept, failed with its reason, and its author is told.
    expect((await api('GET', `/posts/${mustRead.body.id}`, { token: reader.token })).status).toBe(404);
    const kept = (await api('GET', '/users/me/scheduled-posts', { token: boss.token })).body.items;
    const failed = kept.find((p: { id: string }) => p.id === mustRead.body.id);
    expect(failed?.scheduleFailure).toMatch(/super admin|acknowledg/i);
    const told = (await notificationsOf(boss.token)).filter((n) => n.kind === 'post_not_published');
    expect(told.map((n) => n.postId)).toEqual([mustRead.body.id]);
    // A later run leaves it as it is: failed once, told once.
    await publishDuePosts();
    expect((await notificationsOf(boss.token)).filter((n) => n.kind === 'post_not_published')).toHaveLength(1);
  });

  it('a scheduled must-read keeps its acknowledgement requirement through an edit', async () => {
    const a = await admin();
    const publishAt = future(3_000);
    const dueAt = future(2 * 86_400_000);
    const res = await scheduleMustRead(a.token, publishAt, dueAt);
    expect(res.status, res.text).toBe(201);
    const edited = await api('PATCH', `/posts/${res.body.id}`, {
      token: a.token,
      body: { content: 'Read me, edited', isAnnouncement: true },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.acknowledgement).toMatchObject({ required: true, dueAt: new Date(dueAt).toISOString() });
    await publishAfter(publishAt);
    const reader = await newMember();
    const read = await api('GET', `/posts/${res.body.id}`, { token: reader.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      content: 'Read me, edited',
      isAnnouncement: true,
      acknowledgement: { required: true, acknowledgedAt: null },
    });
  });
});

describe('the scheduled posts list', () => {
  /** DynamoDB requests `work` sends from this process. */
  async function requestsOf<T>(work: () => Promise<T>): Promise<{ out: T; requests: number }> {
    const send = vi.spyOn(db(), 'send');
    try {
      const out = await work();
      return { out, requests: send.mock.calls.length };
    } finally {
      send.mockRestore();
    }
  }

  it('reads a page in the same few requests whatever its length, each post with its own moment', async () => {
    const author = await newMember();
    const viewer = { userId: author.id, role: 'member' as const };
    const moments = Array.from({ length: 6 }, (_, k) => new Date(Date.now() + (k + 1) * 3_600_000).toISOString());
    for (const [k, publishAt] of moments.entries()) {
      const res = await schedule(author.token, { content: `Later ${k}`, publishAt });
      expect(res.status, res.text).toBe(201);
    }
    const views = async (limit: number) => {
      const { items } = await listScheduledPosts(viewer, limit, undefined);
      return requestsOf(() => scheduledViews(viewer, items));
    };
    const one = await views(1);
    const six = await views(6);
    expect(six.out.map((p) => [p.content, p.publishAt])).toEqual(moments.map((m, k) => [`Later ${k}`, m]));
    expect(one.out).toHaveLength(1);
    // The views' batch reads for the whole page: no request per post.
    expect(six.requests).toBe(one.requests);
  });
});
