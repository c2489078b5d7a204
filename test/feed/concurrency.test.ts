import { describe, expect, it } from 'vitest';
import { getItem } from '../../shared/db/table.ts';
import { FeedScore } from '../../shared/feed/entities.ts';
import { api, newMember } from '../support/api.ts';
import { createPost, future, getPost } from './helpers.ts';

const N = 50;

/** 50 people acting at the same moment leave exact counters (transactions, conditional writes). */
describe('feed counters under concurrency', () => {
  it('50 concurrent reactions, votes, comments, comment votes and shares leave exact counts', {
    timeout: 300_000,
  }, async () => {
    const author = await newMember();
    const people = await Promise.all(Array.from({ length: N }, () => newMember()));
    const p = await createPost(author.token, {
      content: 'busy post',
      poll: { question: 'Which?', options: ['A', 'B', 'C'], closesAt: future(3600_000) },
    });
    const [a, b] = p.poll.options.map((o: any) => o.id);

    const reactions = await Promise.all(
      people.map((m, i) =>
        api('POST', `/posts/${p.id}/upvote`, {
          token: m.token,
          body: { reaction: i % 5 === 0 ? 'dislike' : i % 2 ? 'love' : 'like' },
        }),
      ),
    );
    expect(reactions.every((r) => r.status === 200)).toBe(true);
    // Half of them change their mind at once, the same number take theirs back.
    await Promise.all(
      people
        .slice(0, 10)
        .map((m) => api('POST', `/posts/${p.id}/upvote`, { token: m.token, body: { reaction: 'funny' } })),
    );
    await Promise.all(people.slice(10, 20).map((m) => api('DELETE', `/posts/${p.id}/upvote`, { token: m.token })));

    const votes = await Promise.all(
      people.map((m, i) =>
        api('POST', `/posts/${p.id}/poll/vote`, { token: m.token, body: { optionId: i % 2 ? a : b } }),
      ),
    );
    expect(votes.every((r) => r.status === 200)).toBe(true);
    await Promise.all(
      people
        .slice(0, 10)
        .map((m) => api('POST', `/posts/${p.id}/poll/vote`, { token: m.token, body: { optionId: b } })),
    );

    const comments = await Promise.all(
      people.map((m, i) =>
        api('POST', `/posts/${p.id}/comments`, { token: m.token, body: { content: `comment ${i}` } }),
      ),
    );
    expect(comments.every((r) => r.status === 201)).toBe(true);
    const top = comments[0].body.id;
    const replies = await Promise.all(
      people.map((m, i) =>
        api('POST', `/posts/${p.id}/comments`, { token: m.token, body: { content: `reply ${i}`, parentId: top } }),
      ),
    );
    expect(replies.every((r) => r.status === 201)).toBe(true);
    const commentVotes = await Promise.all(
      people.map((m, i) =>
        api('POST', `/comments/${top}/vote`, { token: m.token, body: { vote: i % 3 ? 'like' : 'dislike' } }),
      ),
    );
    expect(commentVotes.every((r) => r.status === 200)).toBe(true);
    const shares = await Promise.all(
      people.map((m) => api('POST', `/posts/${p.id}/share`, { token: m.token, body: {} })),
    );
    expect(shares.every((r) => r.status === 201)).toBe(true);

    const read = await getPost(author.token, p.id);
    // Reactions: 10 dislikes among the 50 (i % 5 == 0); people 0..9 switched to funny, 10..19 took theirs back.
    const expected: Record<string, number> = {};
    people.forEach((_, i) => {
      if (i >= 10 && i < 20) return;
      const r = i < 10 ? 'funny' : i % 5 === 0 ? 'dislike' : i % 2 ? 'love' : 'like';
      expected[r] = (expected[r] ?? 0) + 1;
    });
    expect(Object.fromEntries(read.reactions.map((r: any) => [r.reaction, r.count]))).toEqual(expected);
    expect(read.upvoteCount).toBe(40);
    expect(read.commentCount).toBe(2 * N);
    expect(read.shareCount).toBe(N);

    // Votes: odd → A, even → B (25 each). Then 0..9 vote B: the five odd ones move A → B, the five
    // even ones already held B and take it back. Then 49 (on A) votes A again: taken back.
    const poll = (await api('POST', `/posts/${p.id}/poll/vote`, { token: people[49].token, body: { optionId: a } }))
      .body;
    expect(poll.totalVotes).toBe(44);
    expect(poll.options.every((o: any) => o.votes === null)).toBe(true);
    const closed = (await api('POST', `/posts/${p.id}/poll/close`, { token: author.token })).body;
    expect(closed.options.map((o: any) => o.votes)).toEqual([19, 25, 0]);

    const listed = (await api('GET', `/posts/${p.id}/comments?limit=50`, { token: author.token })).body.items;
    const thread = listed.find((c: any) => c.id === top);
    expect(thread.replyCount).toBe(N);
    expect(thread.likeCount + thread.dislikeCount).toBe(N);
    expect(thread.dislikeCount).toBe(people.filter((_, i) => i % 3 === 0).length);

    // The author's score: the reactions held now without dislikes ×1, comments and replies ×2, shares ×3.
    // Read raw: the stored leaderboard sort key (gsi6sk) is checked too.
    const score = await getItem(FeedScore.key({ userId: author.id }), true);
    const scoringReactions = Object.entries(expected)
      .filter(([r]) => r !== 'dislike')
      .reduce((s, [, n]) => s + n, 0);
    expect(score?.reactions).toBe(scoringReactions);
    expect(score?.comments).toBe(2 * N);
    expect(score?.shares).toBe(N);
    expect(score?.gsi6sk).toBe(scoringReactions + 4 * N + 3 * N);
  });
});
