import { describe, expect, it } from 'vitest';
import { MustRead, MustReadAck, MustReadReminder } from '../../shared/feed/entities.ts';
import { closeJoinWindows, sendDueMustReadReminders } from '../../shared/feed/must-read-reminders.ts';
import { listNotifications } from '../../shared/notifications/notifications.ts';
import { admin, api, newMember, uniq } from '../support/api.ts';
import { createPost, future, getPost } from './helpers.ts';

/** Must-read announcements (docs/must-read.md), through the local runtime and its background consumers. */

const DAY = 24 * 60 * 60 * 1000;

async function eventually<T>(read: () => Promise<T | undefined | false>, ms = 20000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const hit = await read();
    if (hit !== undefined && hit !== false) return hit;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 150));
  }
}

const partsOf = (postId: string) => MustReadAck.queryAll({ key: { postId }, consistent: true });
const partOf = (postId: string, userId: string) => MustReadAck.get({ postId, userId }, { consistent: true });

/** The first audience added (the company fan-out's pass is done). */
const audienceAdded = (postId: string) =>
  eventually(async () => {
    const m = await MustRead.get({ postId }, { consistent: true });
    return m?.doneAt ? m : undefined;
  });

/** The counts kept with every change equal the people's parts (read again while a change is in flight). */
async function expectExactCounts(postId: string) {
  const counts = await eventually(async () => {
    const m = (await MustRead.get({ postId }, { consistent: true }))!;
    const parts = await partsOf(postId);
    const pending = parts.filter((p) => p.status === 'pending').length;
    const acknowledged = parts.filter((p) => p.status === 'acknowledged').length;
    return m.pending === pending && m.acknowledged === acknowledged ? { pending, acknowledged } : undefined;
  }, 5000);
  return counts;
}

async function mustRead(token: string, dueAt?: string | null) {
  return createPost(token, {
    content: `Read this ${uniq()}`,
    isAnnouncement: true,
    acknowledgement: { required: true, ...(dueAt !== undefined ? { dueAt } : {}) },
  });
}

const mustReadNotices = async (userId: string, postId: string) =>
  (await listNotifications(userId, 50)).filter((n) => n.kind === 'must_read' && n.postId === postId);

describe('must-read announcements', () => {
  it('acknowledged by some, the rest reminded in pages once, counts exact, no bystander touched', async () => {
    const boss = await newMember({ role: 'super_admin' });
    const people = [];
    for (let i = 0; i < 7; i++) people.push(await newMember());
    const [a, b, c, ...rest] = people;
    const push = await api('POST', '/push/tokens', {
      token: c.token,
      body: { token: `t-${uniq()}`, platform: 'android' },
    });
    expect(push.status).toBe(204);

    const dueAt = future(3 * DAY);
    const post = await mustRead(boss.token, dueAt);
    expect(post.acknowledgement).toMatchObject({ required: true, dueAt, acknowledgedAt: null });
    await audienceAdded(post.id);
    for (const p of people) expect((await partOf(post.id, p.id))?.status, p.id).toBe('pending');
    expect(await partOf(post.id, boss.id)).toBeUndefined(); // the author owes nothing
    const before = await expectExactCounts(post.id);
    expect(before.acknowledged).toBe(0);

    // Bystander: a's acknowledgement changes nothing of c's.
    const cBefore = await partOf(post.id, c.id);
    const first = await api('POST', `/posts/${post.id}/acknowledge`, { token: a.token });
    expect(first.status, first.text).toBe(200);
    const at = first.body.acknowledgement.acknowledgedAt;
    expect(at).toBeTruthy();
    expect(first.body.acknowledgement.pending).toBeUndefined(); // counts are for super admins
    expect(await partOf(post.id, c.id)).toEqual(cBefore);
    // Idempotent: the second changes nothing.
    const again = await api('POST', `/posts/${post.id}/acknowledge`, { token: a.token });
    expect(again.status).toBe(200);
    expect(again.body.acknowledgement.acknowledgedAt).toBe(at);
    expect((await api('POST', `/posts/${post.id}/acknowledge`, { token: b.token })).status).toBe(200);
    const after = await expectExactCounts(post.id);
    expect(after).toEqual({ pending: before.pending - 2, acknowledged: 2 });

    const seenByBoss = await getPost(boss.token, post.id);
    expect(seenByBoss.acknowledgement).toMatchObject({ required: true, dueAt, acknowledgedAt: null, ...after });
    expect((await getPost(c.token, post.id)).acknowledgement).toEqual({ required: true, dueAt, acknowledgedAt: null });
    expect((await getPost(a.token, post.id)).acknowledgement.acknowledgedAt).toBe(at);

    // The super admin's lists: people paged, totals exact.
    const acked = await api('GET', `/posts/${post.id}/acknowledgements?status=acknowledged`, { token: boss.token });
    expect(acked.status).toBe(200);
    expect(acked.body.items.map((i: { person: { id: string } }) => i.person.id).sort()).toEqual([a.id, b.id].sort());
    expect(acked.body).toMatchObject(after);
    const pendingIds: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `/posts/${post.id}/acknowledgements?status=pending&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await api('GET', q, { token: boss.token });
      expect(res.status, res.text).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      pendingIds.push(...res.body.items.map((i: { person: { id: string } }) => i.person.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(pendingIds).size).toBe(pendingIds.length);
    for (const p of [c, ...rest]) expect(pendingIds).toContain(p.id);
    expect(pendingIds).not.toContain(a.id);
    expect((await api('GET', `/posts/${post.id}/acknowledgements`, { token: c.token })).status).toBe(403);

    // What I still owe.
    const owedByC = await api('GET', '/users/me/must-read', { token: c.token });
    expect(owedByC.status).toBe(200);
    expect(owedByC.body.items.map((p: { id: string }) => p.id)).toContain(post.id);
    const owedByA = await api('GET', '/users/me/must-read', { token: a.token });
    expect(owedByA.body.items.map((p: { id: string }) => p.id)).not.toContain(post.id);

    // The reminder (its time is a day before dueAt): pages of 3, each pending person once.
    const when = new Date(Date.parse(dueAt) - DAY + 60_000);
    await sendDueMustReadReminders(when, 3);
    const reminder = (await MustReadReminder.get({ postId: post.id }, { consistent: true }))!;
    expect(reminder.doneAt).toBeTruthy();
    expect(reminder.step).toBeGreaterThan(1);
    expect(reminder.sent).toBe(after.pending);
    for (const p of [c, ...rest]) expect(await mustReadNotices(p.id, post.id), p.id).toHaveLength(1);
    for (const p of [a, b, boss]) expect(await mustReadNotices(p.id, post.id), p.id).toHaveLength(0);
    const mail = await api('GET', `/_local/outbox?to=${encodeURIComponent(c.email)}&channel=email`);
    expect(mail.body.some((m: { body: string }) => m.body.includes(`/feed#post-${post.id}`))).toBe(true);
    const pushed = await api('GET', `/_local/outbox?to=${c.id}&channel=push`);
    expect(pushed.body.some((m: { kind: string; link: string }) => m.kind === 'must_read')).toBe(true);
    // Once per person: a later run sends nothing more.
    await sendDueMustReadReminders(when, 3);
    expect(await mustReadNotices(c.id, post.id)).toHaveLength(1);
    expect(await expectExactCounts(post.id)).toEqual(after);
  }, 240_000);

  it('reminds nobody of a hidden must-read, and mails the preview, never the whole text', async () => {
    const boss = await newMember({ role: 'super_admin' });
    const a = await admin();
    const member = await newMember();
    const dueAt = future(3 * DAY);
    const tail = `TAIL-${uniq()}`;
    const long = await createPost(boss.token, {
      content: `${'Long and careful words. '.repeat(20)}${tail}`,
      isAnnouncement: true,
      acknowledgement: { required: true, dueAt },
    });
    const secret = `LEAKED-${uniq()}`;
    const leaked = await createPost(boss.token, {
      content: `Confidential ${secret}`,
      isAnnouncement: true,
      acknowledgement: { required: true, dueAt },
    });
    await audienceAdded(long.id);
    await audienceAdded(leaked.id);
    expect((await api('POST', `/admin/posts/${leaked.id}/hide`, { token: a.token })).status).toBe(200);

    await sendDueMustReadReminders(new Date(Date.parse(dueAt) - DAY + 60_000));
    expect(await mustReadNotices(member.id, long.id)).toHaveLength(1);
    const mail = (await api('GET', `/_local/outbox?to=${encodeURIComponent(member.email)}&channel=email`)).body as {
      body: string;
    }[];
    const reminded = mail.filter((m) => m.body.includes(`/feed#post-${long.id}`));
    expect(reminded).toHaveLength(1);
    expect(reminded[0].body).toContain('Long and careful words.');
    expect(reminded[0].body).not.toContain(tail);
    expect(await mustReadNotices(member.id, leaked.id)).toHaveLength(0);
    expect(mail.some((m) => m.body.includes(secret) || m.body.includes(`/feed#post-${leaked.id}`))).toBe(false);
  }, 240_000);

  it('a joiner before dueAt is added, a leaver drops out of pending, a returner owes it again', async () => {
    const boss = await newMember({ role: 'super_admin' });
    const leaver = await newMember();
    const post = await mustRead(boss.token, future(2 * DAY));
    await audienceAdded(post.id);
    expect((await partOf(post.id, leaver.id))?.status).toBe('pending');
    const start = await expectExactCounts(post.id);

    const joiner = await newMember();
    await eventually(async () => (await partOf(post.id, joiner.id))?.status === 'pending');
    const { token } = await admin();
    const off = await api('PATCH', `/admin/members/${leaver.id}/status`, { token, body: { status: 'deactivated' } });
    expect(off.status, off.text).toBe(200);
    await eventually(async () => (await partOf(post.id, leaver.id)) === undefined || undefined);
    expect(await expectExactCounts(post.id)).toEqual({ pending: start.pending, acknowledged: 0 });
    // The joiner owes it and sees it.
    const owed = await api('GET', '/users/me/must-read', { token: joiner.token });
    expect(owed.body.items.map((p: { id: string }) => p.id)).toContain(post.id);

    const on = await api('PATCH', `/admin/members/${leaver.id}/status`, { token, body: { status: 'active' } });
    expect(on.status).toBe(200);
    await eventually(async () => (await partOf(post.id, leaver.id))?.status === 'pending');
    expect(await expectExactCounts(post.id)).toEqual({ pending: start.pending + 1, acknowledged: 0 });
  }, 120_000);

  it('without a dueAt, people who join within 30 days are added', async () => {
    const boss = await newMember({ role: 'super_admin' });
    const post = await mustRead(boss.token);
    expect(post.acknowledgement.dueAt).toBeNull();
    const state = await audienceAdded(post.id);
    expect(Date.parse(state.joinUntil) - Date.parse(post.createdAt)).toBe(30 * DAY);
    expect(await MustReadReminder.get({ postId: post.id })).toBeUndefined(); // nothing to remind of
    const joiner = await newMember();
    await eventually(async () => (await partOf(post.id, joiner.id))?.status === 'pending');
  });

  it('a must-read closed to joiners leaves the joinable index, and a later joiner is not added to it', async () => {
    const boss = await newMember({ role: 'super_admin' });
    const closing = await mustRead(boss.token, future(2 * DAY));
    const open = await mustRead(boss.token, future(5 * DAY));
    await audienceAdded(closing.id);
    await audienceAdded(open.id);
    // The schedule's run three days on: the first window has passed, the second has not.
    const later = new Date(Date.now() + 3 * DAY);
    await eventually(async () => {
      await closeJoinWindows(later);
      return (await MustRead.get({ postId: closing.id }, { consistent: true }))?.joinClosedAt;
    });
    expect((await MustRead.get({ postId: open.id }, { consistent: true }))?.joinClosedAt).toBeUndefined();
    const joinable = await MustRead.queryAll({ index: 'joinable', key: {}, consistent: false });
    expect(joinable.map((m) => m.postId)).not.toContain(closing.id);
    const joiner = await newMember();
    await eventually(async () => (await partOf(open.id, joiner.id))?.status === 'pending');
    expect(await partOf(closing.id, joiner.id)).toBeUndefined();
  }, 120_000);

  it('lists what I owe newest first, paged', async () => {
    const boss = await newMember({ role: 'super_admin' });
    const me = await newMember();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await mustRead(boss.token, future(5 * DAY))).id);
    for (const id of ids) await eventually(async () => (await partOf(id, me.id))?.status === 'pending');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `/users/me/must-read?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await api('GET', q, { token: me.token });
      expect(res.status, res.text).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((p: { id: string }) => p.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    const mine = seen.filter((id) => ids.includes(id));
    expect(mine).toEqual([...ids].reverse());
    // Acknowledged: off the list.
    expect((await api('POST', `/posts/${ids[1]}/acknowledge`, { token: me.token })).status).toBe(200);
    const now = await api('GET', '/users/me/must-read?limit=50', { token: me.token });
    expect(now.body.items.map((p: { id: string }) => p.id)).not.toContain(ids[1]);
  });

  it('deleting a must-read takes its state and the part of everybody with it', async () => {
    const boss = await newMember({ role: 'super_admin' });
    const me = await newMember();
    const post = await mustRead(boss.token, future(4 * DAY));
    await audienceAdded(post.id);
    expect((await api('POST', `/posts/${post.id}/acknowledge`, { token: me.token })).status).toBe(200);
    expect((await api('DELETE', `/posts/${post.id}`, { token: boss.token })).status).toBe(204);
    expect((await api('POST', `/posts/${post.id}/acknowledge`, { token: me.token })).status).toBe(404);
    await eventually(async () => (await partsOf(post.id)).length === 0);
    expect(await MustRead.get({ postId: post.id }, { consistent: true })).toBeUndefined();
    expect(await MustReadReminder.get({ postId: post.id }, { consistent: true })).toBeUndefined();
  });

  it('refuses what it cannot do with a clear 4xx', async () => {
    const boss = await newMember({ role: 'super_admin' });
    const member = await newMember();
    const ack = { required: true };
    const asMember = await api('POST', '/posts', {
      token: member.token,
      body: { content: 'x', isAnnouncement: true, acknowledgement: ack },
    });
    expect(asMember.status).toBe(403);
    const notAnnouncement = await api('POST', '/posts', {
      token: boss.token,
      body: { content: 'x', acknowledgement: ack },
    });
    expect(notAnnouncement.status).toBe(400);
    const past = await api('POST', '/posts', {
      token: boss.token,
      body: { content: 'x', isAnnouncement: true, acknowledgement: { required: true, dueAt: future(-DAY) } },
    });
    expect(past.status).toBe(400);
    const notRequired = await api('POST', '/posts', {
      token: boss.token,
      body: { content: 'x', isAnnouncement: true, acknowledgement: { required: false } },
    });
    expect(notRequired.status).toBe(400);
    expect(notRequired.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });

    const plain = await createPost(boss.token, { content: `plain ${uniq()}`, isAnnouncement: true });
    expect(plain.acknowledgement).toBeUndefined();
    const none = await api('POST', `/posts/${plain.id}/acknowledge`, { token: member.token });
    expect(none.status).toBe(409);
    expect((await api('GET', `/posts/${plain.id}/acknowledgements`, { token: boss.token })).status).toBe(409);
    const unknown = await api('POST', '/posts/0000000000000000000000/acknowledge', { token: member.token });
    expect(unknown.status).toBe(404);
    expect((await api('POST', '/posts/nope/acknowledge', { token: member.token })).status).toBe(404);
    const real = await mustRead(boss.token);
    const bad = await api('GET', `/posts/${real.id}/acknowledgements?status=maybe`, { token: boss.token });
    expect(bad.status).toBe(400);
    expect((await api('GET', '/users/me/must-read?limit=0', { token: member.token })).status).toBe(400);
    expect((await api('GET', '/users/me/must-read?cursor=garbage', { token: member.token })).status).toBe(400);
  });
});
