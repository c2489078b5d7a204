import { describe, expect, it } from 'vitest';
import { exportOf } from '../../shared/data-rights/export.ts';
import { EXPORTED } from '../../shared/data-rights/export-document.ts';
import { failureReason } from '../../shared/data-rights/job-failure.ts';
import { dataRules } from '../../shared/data-rights/rules.ts';
import { Comment, FeedScore, Follow, Post } from '../../shared/feed/entities.ts';
import { User } from '../../shared/people/entities.ts';
import { plainPost } from '../support/post-fields.ts';

/**
 * What the export's document holds of each kind (issue 33, item 3): the fields declared per kind
 * (EXPORTED), and only the items that are the person's or about them as the API shows them. The whole
 * walk over data of every kind is test/data-rights/data-rights.test.ts.
 */
const ME = 'me-0000';
const OTHER = 'other-0000';
const shown = { postShown: async () => true };
const hidden = { postShown: async () => false };

const post = (fields: Record<string, unknown>) =>
  Post.item({
    ...plainPost({
      id: 'p1',
      authorId: OTHER,
      content: `About @[${ME}]`,
      mentionedIds: [ME],
      createdAt: '2026-01-01T00:00:00.000Z',
    }),
    ...fields,
  });

describe("the export's declared view per kind", () => {
  it('covers every kind that has a section, and no other (notifications are opened from their seal)', () => {
    const withSection = Object.entries(dataRules)
      .filter(([, rule]) => rule.section)
      .map(([name]) => name)
      .filter((name) => name !== 'Notification')
      .sort();
    expect(Object.keys(EXPORTED).sort()).toEqual(withSection);
  });

  it("leaves the profile's internal marks, keys and index attributes out", async () => {
    const profile = { ...User.item({ id: ME, name: 'Me', email: 'me@example.com' } as any), legalHold: true };
    const stored = { ...profile, erasureId: 'e1', actorId: OTHER, rev: 3 };
    const found = await exportOf(stored, ME, shown);
    expect(found?.section).toBe('profile');
    expect(found?.view).toMatchObject({ id: ME, name: 'Me', email: 'me@example.com' });
    for (const k of ['legalHold', 'erasureId', 'actorId', 'rev', 'pk', 'sk', 'entity', 'gsi1pk', 'gsi1sk'])
      expect(found?.view).not.toHaveProperty(k);
    // Another person's profile: only as their report.
    const report = { ...User.item({ id: OTHER, name: 'O', email: 'o@example.com' } as any), managerId: ME };
    expect((await exportOf(report, ME, shown))?.view).toEqual({ id: OTHER, name: 'O', managerId: ME });
    expect(await exportOf({ ...report, managerId: null, actorId: ME }, ME, shown)).toBeNull();
  });

  it('gives whom they follow, never who follows them; their score, never one they moved', async () => {
    const at = '2026-01-01T00:00:00.000Z';
    const mine = Follow.item({ userId: ME, followingId: OTHER, actorId: ME, createdAt: at });
    const theirs = Follow.item({ userId: OTHER, followingId: ME, actorId: OTHER, createdAt: at });
    expect((await exportOf(mine, ME, shown))?.view).toEqual({ userId: ME, followingId: OTHER, createdAt: at });
    expect(await exportOf(theirs, ME, shown)).toBeNull();
    const score = (userId: string) =>
      FeedScore.item({ userId, actorId: ME, reactions: 1, comments: 0, shares: 0, posts: 1 });
    expect((await exportOf(score(ME), ME, shown))?.view).toEqual({
      userId: ME,
      reactions: 1,
      comments: 0,
      shares: 0,
      posts: 1,
    });
    expect(await exportOf(score(OTHER), ME, shown)).toBeNull();
  });

  it("gives others' posts and comments about them only where they can see them", async () => {
    expect((await exportOf(post({}), ME, shown))?.view).not.toHaveProperty('actorId');
    expect(await exportOf(post({ hidden: true }), ME, shown)).toBeNull();
    // Their own hidden post is theirs (they see it).
    expect(await exportOf(post({ hidden: true, authorId: ME, mentionedIds: [] }), ME, shown)).not.toBeNull();
    const comment = Comment.item({
      id: 'c1',
      postId: 'p1',
      parentId: null,
      authorId: OTHER,
      content: `About @[${ME}]`,
      mentionedIds: [ME],
      likeCount: 0,
      dislikeCount: 0,
      replyCount: 0,
      repliers: new Set([OTHER]),
      createdAt: '2026-01-01T00:00:00.000Z',
      editedAt: null,
      actorId: OTHER,
    });
    expect((await exportOf(comment, ME, shown))?.view).not.toHaveProperty('repliers');
    expect(await exportOf(comment, ME, hidden)).toBeNull();
    // A comment that merely carries their id somewhere else is not about them.
    expect(await exportOf({ ...comment, mentionedIds: [], content: `see ${ME}` }, ME, shown)).toBeNull();
  });
});

describe("a failed job's reason", () => {
  it('names the step, the kind of failure and the kinds of item, never what the message says of a person', () => {
    const err = new Error('data rights: Post POST#9f1c/POST kept changing for me@example.com');
    expect(failureReason('table walk', err)).toBe('table walk: an item kept changing (Post)');
    const odd = Object.assign(new Error(`cannot read ${ME}'s name`), { name: 'TypeError' });
    expect(failureReason('assembly', odd)).toBe('assembly: TypeError');
    expect(failureReason('objects', 'a string thrown')).toBe('objects: Error');
  });
});
