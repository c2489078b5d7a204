import { describe, expect, it } from 'vitest';
import { announceClosedPolls } from '../../shared/feed/polls.ts';
import { api, newMember } from '../support/api.ts';
import { createPost, future, getPost, notificationsOf } from './helpers.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The tests run without schedules: the closing sweep is called as its schedule would. */
/**
 * Long enough for the votes (and the close) to land before the poll closes, even when each is the
 * first call of its function (a cold start of the local runtime under load takes a second or more).
 */
const VOTING_MS = 6000;
/** Waits until the poll's closing time has passed. */
const sleepUntilPast = (iso: string) => sleep(Math.max(0, Date.parse(iso) - Date.now()) + 300);

describe('poll closing', () => {
  it('closes at closesAt on read, and the sweep tells author and voters once, without an actor', async () => {
    const a = await newMember();
    const b = await newMember();
    const c = await newMember();
    const p = await createPost(a.token, {
      poll: { question: 'Soon?', options: ['Yes', 'No'], closesAt: future(VOTING_MS) },
    });
    for (const [voter, option] of [
      [b, 0],
      [c, 1],
    ] as const) {
      const vote = await api('POST', `/posts/${p.id}/poll/vote`, {
        token: voter.token,
        body: { optionId: p.poll.options[option].id },
      });
      expect(vote.status).toBe(200);
    }
    await sleepUntilPast(p.poll.closesAt);
    expect((await getPost(a.token, p.id)).poll.isClosed).toBe(true);
    expect(
      (await api('POST', `/posts/${p.id}/poll/vote`, { token: b.token, body: { optionId: p.poll.options[1].id } }))
        .status,
    ).toBe(409);
    expect((await api('POST', `/posts/${p.id}/poll/close`, { token: a.token })).status).toBe(409);

    expect(await announceClosedPolls()).toBeGreaterThanOrEqual(1);
    for (const who of [a, b, c]) {
      const mine = (await notificationsOf(who.token)).filter((n) => n.kind === 'poll_closed' && n.postId === p.id);
      expect(mine).toHaveLength(1);
      expect(mine[0].actor).toBeNull();
    }
    await announceClosedPolls();
    expect((await notificationsOf(b.token)).filter((n) => n.kind === 'poll_closed' && n.postId === p.id)).toHaveLength(
      1,
    );

    const voters = await api('GET', `/posts/${p.id}/poll/voters`, { token: c.token });
    expect(voters.status).toBe(200);
    expect(voters.body.map((v: any) => v.voters.map((m: any) => m.id))).toEqual([[b.id], [c.id]]);
  });

  it('an early close tells the voters (not the author) and the sweep does not tell them again', async () => {
    const a = await newMember();
    const b = await newMember();
    const p = await createPost(a.token, {
      poll: { question: 'Now?', options: ['Yes', 'No'], closesAt: future(VOTING_MS) },
    });
    const vote = await api('POST', `/posts/${p.id}/poll/vote`, {
      token: b.token,
      body: { optionId: p.poll.options[0].id },
    });
    expect(vote.status).toBe(200);
    const closed = await api('POST', `/posts/${p.id}/poll/close`, { token: a.token });
    expect(closed.status).toBe(200);
    expect(closed.body.isClosed).toBe(true);
    await sleepUntilPast(p.poll.closesAt);
    await announceClosedPolls();
    expect((await notificationsOf(b.token)).filter((n) => n.kind === 'poll_closed' && n.postId === p.id)).toHaveLength(
      1,
    );
    expect((await notificationsOf(a.token)).filter((n) => n.kind === 'poll_closed' && n.postId === p.id)).toHaveLength(
      0,
    );
  });

  it('hides tallies from non-voters (the author too) while open; totalVotes is always shown', async () => {
    const a = await newMember();
    const b = await newMember();
    const p = await createPost(a.token, {
      poll: { question: 'Hidden?', options: ['Yes', 'No'], closesAt: future(3600_000) },
    });
    await api('POST', `/posts/${p.id}/poll/vote`, { token: b.token, body: { optionId: p.poll.options[0].id } });
    const forAuthor = (await getPost(a.token, p.id)).poll;
    expect(forAuthor.options.every((o: any) => o.votes === null)).toBe(true);
    expect(forAuthor.totalVotes).toBe(1);
    expect((await api('POST', `/posts/${p.id}/poll/vote`, { token: b.token, body: { optionId: 'nope' } })).status).toBe(
      400,
    );
  });
});
