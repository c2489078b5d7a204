import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/db/client.ts';
import { putMany, write } from '../../shared/db/table.ts';
import { PollClosedNotice, PollVote } from '../../shared/feed/entities.ts';
import { pollClosedNotice, sendPollClosedNotice } from '../../shared/feed/poll-closed-notices.ts';
import { announceClosedPolls, pollVoters } from '../../shared/feed/polls.ts';
import { listNotifications } from '../../shared/notifications/notifications.ts';
import { api, newMember } from '../support/api.ts';
import { createPost, future, getPost, notificationsOf, waitFor } from './helpers.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The tests run without schedules: the closing sweep is called as its schedule would. */
/**
 * Long enough for the votes (and the close) to land before the poll closes, even when each is the
 * first call of its function (a cold start of the local runtime under load takes a second or more).
 */
const VOTING_MS = 6000;
/** Waits until the poll's closing time has passed. */
const sleepUntilPast = (iso: string) => sleep(Math.max(0, Date.parse(iso) - Date.now()) + 300);

/** A person's poll_closed notifications of one post. */
const pollClosed = async (token: string, postId: string) =>
  (await notificationsOf(token)).filter((n) => n.kind === 'poll_closed' && n.postId === postId);
/** Waits until the feed fan-out has finished the poll's closing notice. */
const noticeDone = (postId: string) =>
  waitFor(async () => {
    const n = await PollClosedNotice.get({ postId: postId }, { consistent: true });
    return n?.doneAt ? n : undefined;
  }, 20_000);

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
    await noticeDone(p.id); // the sweep only wrote the closing notice; the feed fan-out tells them
    for (const who of [a, b, c]) {
      const mine = await pollClosed(who.token, p.id);
      expect(mine).toHaveLength(1);
      expect(mine[0].actor).toBeNull();
    }
    await announceClosedPolls();
    await sleep(1000); // time for a second notice, were there one, to reach the fan-out
    expect(await pollClosed(b.token, p.id)).toHaveLength(1);

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
    await noticeDone(p.id);
    await sleepUntilPast(p.poll.closesAt);
    await announceClosedPolls();
    await sleep(1000);
    expect(await pollClosed(b.token, p.id)).toHaveLength(1);
    expect(await pollClosed(a.token, p.id)).toHaveLength(0);
  });

  it('tells voters beyond one transaction page by page, each exactly once however many senders run', async () => {
    const a = await newMember();
    const p = await createPost(a.token, {
      poll: { question: 'Many?', options: ['Yes', 'No'], closesAt: future(3600_000) },
    });
    // 110 voters (three pages of 48), written straight into the table: notifications need only the ids.
    const voters = Array.from({ length: 110 }, () => `poll-voter-${randomUUID()}`);
    const at = new Date().toISOString();
    await putMany(
      voters.map((userId, i) =>
        PollVote.item({ postId: p.id, userId, optionId: p.poll.options[i % 2].id, votedAt: at, actorId: userId }),
      ),
    );
    // The notice as the author's close writes it; the runtime's fan-out picks it up too, so three
    // senders race for the same pages.
    await write(PollClosedNotice.create(pollClosedNotice(p.id, a.id, at)));
    await Promise.all([sendPollClosedNotice(p.id), sendPollClosedNotice(p.id)]);
    const notice = await noticeDone(p.id);
    expect(notice.sent).toBe(voters.length);
    for (const id of [voters[0], voters[47], voters[48], voters[109]]) {
      const mine = (await listNotifications(id, 50)).filter((n) => n.kind === 'poll_closed' && n.postId === p.id);
      expect(mine).toHaveLength(1);
    }
    expect(await pollClosed(a.token, p.id)).toHaveLength(0); // the author closed it
    await sendPollClosedNotice(p.id); // a redelivery after it is done sends nothing
    expect((await PollClosedNotice.get({ postId: p.id }, { consistent: true }))?.sent).toBe(voters.length);
  });

  it('an early close answers without telling anybody in the request: it writes the closing notice', async () => {
    const a = await newMember();
    const b = await newMember();
    const p = await createPost(a.token, {
      poll: { question: 'Notice?', options: ['Yes', 'No'], closesAt: future(3600_000) },
    });
    for (const [voter, option] of [
      [a, 0],
      [b, 1],
    ] as const) {
      const vote = await api('POST', `/posts/${p.id}/poll/vote`, {
        token: voter.token,
        body: { optionId: p.poll.options[option].id },
      });
      expect(vote.status).toBe(200);
    }
    const closed = await api('POST', `/posts/${p.id}/poll/close`, { token: a.token });
    expect(closed.status).toBe(200);
    expect(closed.body.viewerOptionId).toBe(p.poll.options[0].id); // the author's own vote, read alone
    expect(closed.body.isClosed).toBe(true);
    const notice = await PollClosedNotice.get({ postId: p.id }, { consistent: true });
    expect(notice).toMatchObject({ postId: p.id, closedBy: a.id });
    await noticeDone(p.id);
    expect(await pollClosed(b.token, p.id)).toHaveLength(1);
    expect(await pollClosed(a.token, p.id)).toHaveLength(0); // a voter, but the one who closed it
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

describe('poll voters', () => {
  /** The keys of every DynamoDB read `work` makes in this process. */
  async function readKeysOf(work: () => Promise<unknown>): Promise<string[]> {
    const send = vi.spyOn(db(), 'send');
    try {
      await work();
      return send.mock.calls.flatMap(([command]: any[]) => {
        const input = command.input ?? {};
        if (input.RequestItems)
          return Object.values(input.RequestItems as Record<string, { Keys?: any[] }>).flatMap((r) =>
            (r.Keys ?? []).map((k) => `${k.pk}|${k.sk}`),
          );
        if (input.Key) return [`${input.Key.pk}|${input.Key.sk}`];
        if (input.KeyConditionExpression) return [`query ${JSON.stringify(input.ExpressionAttributeValues)}`];
        return [];
      });
    } finally {
      send.mockRestore();
    }
  }

  it('lists the voters from their votes, as named when they voted, reading no profile', async () => {
    const a = await newMember();
    const b = await newMember();
    const c = await newMember();
    const p = await createPost(a.token, {
      poll: { question: 'Names?', options: ['Yes', 'No'], closesAt: future(3600_000) },
    });
    for (const [voter, option] of [
      [b, 0],
      [c, 1],
    ] as const)
      expect(
        (
          await api('POST', `/posts/${p.id}/poll/vote`, {
            token: voter.token,
            body: { optionId: p.poll.options[option].id },
          })
        ).status,
      ).toBe(200);
    // A vote of 0.3.0 (no name stored): its voter's profile is read, that one only.
    const d = await newMember();
    await putMany([
      PollVote.item({
        postId: p.id,
        userId: d.id,
        optionId: p.poll.options[1].id,
        votedAt: new Date().toISOString(),
        actorId: d.id,
      }),
    ]);
    const renamed = `Renamed ${randomUUID().slice(0, 6)}`;
    expect((await api('PATCH', '/users/me/profile', { token: b.token, body: { name: renamed } })).status).toBe(200);
    expect((await api('POST', `/posts/${p.id}/poll/close`, { token: a.token })).status).toBe(200);

    const viewer = { userId: c.id, role: 'member' as const };
    let answer: Awaited<ReturnType<typeof pollVoters>> = [];
    const keys = await readKeysOf(async () => {
      answer = await pollVoters(viewer, p.id);
    });
    const profiles = keys.filter((k) => k.endsWith('|PROFILE'));
    expect(profiles).toEqual([`USER#${d.id}|PROFILE`]);
    expect(answer).toEqual([
      { optionId: p.poll.options[0].id, voters: [{ id: b.id, name: b.name, image: null }] },
      {
        optionId: p.poll.options[1].id,
        voters: [
          { id: c.id, name: c.name, image: null },
          { id: d.id, name: d.name, image: null },
        ],
      },
    ]);
    const http = await api('GET', `/posts/${p.id}/poll/voters`, { token: c.token });
    expect(http.status).toBe(200);
    expect(http.body).toEqual(answer);
  });
});
