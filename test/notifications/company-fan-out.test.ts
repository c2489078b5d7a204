import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnnouncementNotice } from '../../shared/feed/entities.ts';
import { type SeededCompany, seededCompany } from '../support/seeded-company.ts';

/**
 * Issue 38, item 2, through the local runtime in a company of its own (5,000 people seeded straight
 * into the table): while an announcement to everybody fans out, a reply's notification still
 * arrives within 2 s, because company-wide fan-outs have a consumer of their own (`company-fan-out`)
 * and personal notices never wait behind them (`feed-fan-out`). The announcement still reaches
 * everybody exactly once, and is counted unread.
 */
const PEOPLE = 5_000;
const REPLIES = 5;
const BUDGET_MS = 2_000;

let company: SeededCompany;
beforeAll(async () => {
  company = await seededCompany(PEOPLE);
}, 600_000);
afterAll(async () => {
  await company?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('personal notifications never wait behind a company-wide fan-out', () => {
  it('a reply notification arrives within 2 s while an announcement to 5,000 people fans out', async () => {
    const [starter, replier] = [await company.member('Thread Starter'), await company.member('Quick Replier')];
    const post = await company.call('POST', '/posts', starter.token, { content: 'a thread to answer' });
    expect(post.status).toBe(201);
    const top = await company.call('POST', `/posts/${post.body.id}/comments`, starter.token, { content: 'first' });
    expect(top.status).toBe(201);

    // Warm: every function on the reply's way has started once (a cold start is not what is measured).
    const warm = await company.call('POST', `/posts/${post.body.id}/comments`, replier.token, {
      content: 'warming up',
      parentId: top.body.id,
    });
    expect(warm.status).toBe(201);
    for (let i = 0; i < 100; i++) {
      const list = await company.call('GET', '/notifications?limit=50', starter.token);
      if (list.body.some((n: { commentId: string }) => n.commentId === warm.body.id)) break;
      await sleep(200);
    }

    const announcement = await company.call('POST', '/posts', company.adminToken, {
      content: 'To everybody: the office is closed on Friday.',
      isAnnouncement: true,
    });
    expect(announcement.status).toBe(201);
    const postId = announcement.body.id as string;
    // The fan-out has begun (its notice exists) before the replies are written.
    for (let i = 0; i < 100 && !(await AnnouncementNotice.get({ postId }, { consistent: true })); i++) await sleep(100);
    expect(await AnnouncementNotice.get({ postId }, { consistent: true })).toBeDefined();

    const delays: number[] = [];
    for (let i = 0; i < REPLIES; i++) {
      const reply = await company.call('POST', `/posts/${post.body.id}/comments`, replier.token, {
        content: `reply ${i}`,
        parentId: top.body.id,
      });
      expect(reply.status).toBe(201);
      const sent = Date.now();
      let arrived = false;
      while (!arrived && Date.now() - sent < 10_000) {
        const list = await company.call('GET', '/notifications?limit=50', starter.token);
        arrived = list.body.some(
          (n: { kind: string; commentId: string }) => n.kind === 'reply' && n.commentId === reply.body.id,
        );
        if (!arrived) await sleep(50);
      }
      delays.push(Date.now() - sent);
    }
    // Still fanning out after the last reply arrived: the replies did not wait for it to finish.
    const during = await AnnouncementNotice.get({ postId }, { consistent: true });
    expect(
      during?.doneAt,
      `announcement done before the replies were measured (${JSON.stringify(delays)})`,
    ).toBeUndefined();
    expect(Math.max(...delays), `reply delays ${JSON.stringify(delays)} ms`).toBeLessThan(BUDGET_MS);

    // The announcement reaches everybody but its author, once each, and is counted unread.
    for (let i = 0; i < 1200 && !(await AnnouncementNotice.get({ postId }, { consistent: true }))?.doneAt; i++)
      await sleep(500);
    expect((await AnnouncementNotice.get({ postId }, { consistent: true }))?.doneAt).toBeDefined();
    const told = (await company.notifications()).filter((n) => n.c.kind === 'announcement' && n.c.postId === postId);
    const recipients = new Set(told.map((n) => n.recipientId));
    expect(told).toHaveLength(PEOPLE + 2);
    expect(recipients.size).toBe(PEOPLE + 2);
    for (const id of [company.ids[0], company.ids[PEOPLE - 1], starter.id]) expect(recipients.has(id)).toBe(true);
    const count = await company.call('GET', '/notifications/unread-count', starter.token);
    expect(count.body.count).toBe(REPLIES + 2);
  }, 1_500_000);
});
