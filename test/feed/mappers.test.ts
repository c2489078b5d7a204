import { describe, expect, it } from 'vitest';
import { feedChangeMappers } from '../../shared/feed/change-events.ts';
import type { ItemChange } from '../../shared/live/change-events.ts';
import { changeMappers } from '../../shared/registry/change-mappers.ts';

const at = new Date('2026-01-01T00:00:00Z');
const insert = (newImage: Record<string, any>): ItemChange => ({
  eventName: 'INSERT',
  oldImage: undefined,
  newImage,
  at,
});
const modify = (oldImage: Record<string, any>, newImage: Record<string, any>): ItemChange => ({
  eventName: 'MODIFY',
  oldImage,
  newImage,
  at,
});
const remove = (oldImage: Record<string, any>): ItemChange => ({
  eventName: 'REMOVE',
  oldImage,
  newImage: undefined,
  at,
});
const map = (change: ItemChange) => {
  const entity = (change.newImage ?? change.oldImage)!.entity as string;
  return changeMappers[entity](change);
};

const poll = {
  question: 'Q',
  description: '',
  options: [{ id: 'o1', text: 'A' }],
  closesAt: '2026-02-01T00:00:00.000Z',
  closedAt: null,
};
const post = {
  entity: 'Post',
  id: 'p1',
  authorId: 'u1',
  content: 'hi',
  tags: [],
  images: [],
  videos: [],
  documents: [],
  poll,
  recognition: null,
  isAnnouncement: true,
  hidden: false,
  sharedPostId: null,
  editedAt: null,
  actorId: 'u1',
  rev: 0,
};

describe('feed change mappers', () => {
  it('are registered for every feed entity', () => {
    for (const [entity, mapper] of Object.entries(feedChangeMappers)) expect(changeMappers[entity]).toBe(mapper);
  });

  it('post.created carries the flags; post.deleted the author; both to everyone', () => {
    expect(map(insert(post))).toEqual([
      {
        type: 'post.created',
        actorId: 'u1',
        payload: { postId: 'p1', authorId: 'u1', isAnnouncement: true, isRecognition: false, hasPoll: true },
        audience: { kind: 'all' },
      },
    ]);
    expect(map(remove({ ...post, actorId: 'admin' }))).toEqual([
      { type: 'post.deleted', actorId: 'admin', payload: { postId: 'p1', authorId: 'u1' }, audience: { kind: 'all' } },
    ]);
  });

  it('an edit or a hide is post.updated; stamping the deleter or counters is nothing', () => {
    expect(
      map(modify(post, { ...post, content: 'edited', editedAt: 'x', actorId: 'u1', rev: 1 })).map((e) => e.type),
    ).toEqual(['post.updated']);
    expect(map(modify(post, { ...post, hidden: true, actorId: 'admin', rev: 1 }))).toEqual([
      { type: 'post.updated', actorId: 'admin', payload: { postId: 'p1' }, audience: { kind: 'all' } },
    ]);
    expect(map(modify(post, { ...post, actorId: 'admin', rev: 1 }))).toEqual([]);
    expect(map(modify(post, { ...post, announcedAt: 'now', rev: 1 }))).toEqual([]);
  });

  it('closing a poll is post.poll.updated: the author as actor early, nobody at closesAt', () => {
    const early = map(
      modify(post, { ...post, poll: { ...poll, closedAt: 'now' }, pollClosedNotifiedAt: 'now', actorId: 'u1', rev: 1 }),
    );
    expect(early).toEqual([
      { type: 'post.poll.updated', actorId: 'u1', payload: { postId: 'p1' }, audience: { kind: 'all' } },
    ]);
    const byTime = map(
      modify({ ...post, actorId: 'u9' }, { ...post, actorId: 'u9', pollClosedNotifiedAt: 'now', rev: 1 }),
    );
    expect(byTime).toEqual([
      { type: 'post.poll.updated', actorId: null, payload: { postId: 'p1' }, audience: { kind: 'all' } },
    ]);
    // Removing the poll in an edit is an update of the post.
    expect(map(modify(post, { ...post, poll: null, editedAt: 'x', rev: 1 })).map((e) => e.type)).toEqual([
      'post.updated',
    ]);
  });

  it('counters tell which part moved', () => {
    const stats = {
      entity: 'PostStats',
      postId: 'p1',
      reactions: { like: 0 },
      reactionTotal: 0,
      commentCount: 0,
      shareCount: 0,
      tallies: { o1: 0 },
      pollTotal: 0,
      actorId: 'u1',
    };
    expect(map(modify(stats, { ...stats, reactions: { like: 1 }, reactionTotal: 1, actorId: 'u2' }))).toEqual([
      { type: 'post.reaction.updated', actorId: 'u2', payload: { postId: 'p1' }, audience: { kind: 'all' } },
    ]);
    expect(map(modify(stats, { ...stats, shareCount: 1, actorId: 'u3' })).map((e) => e.type)).toEqual([
      'post.share.updated',
    ]);
    expect(map(modify(stats, { ...stats, tallies: { o1: 1 }, pollTotal: 1 })).map((e) => e.type)).toEqual([
      'post.poll.updated',
    ]);
    expect(map(modify(stats, { ...stats, commentCount: 1 }))).toEqual([]);
    expect(map(insert(stats))).toEqual([]);
  });

  it('comments: created and deleted with parentId; votes; an edit is nothing', () => {
    const c = {
      entity: 'Comment',
      id: 'c1',
      postId: 'p1',
      parentId: null,
      likeCount: 0,
      dislikeCount: 0,
      content: 'x',
      actorId: 'u2',
    };
    expect(map(insert(c))).toEqual([
      {
        type: 'post.comment.created',
        actorId: 'u2',
        payload: { postId: 'p1', commentId: 'c1', parentId: null },
        audience: { kind: 'all' },
      },
    ]);
    expect(map(remove({ ...c, parentId: 'c0' }))[0]).toMatchObject({
      type: 'post.comment.deleted',
      payload: { postId: 'p1', commentId: 'c1', parentId: 'c0' },
    });
    expect(map(modify(c, { ...c, likeCount: 1, actorId: 'u3' }))).toEqual([
      {
        type: 'post.comment.vote.updated',
        actorId: 'u3',
        payload: { postId: 'p1', commentId: 'c1' },
        audience: { kind: 'all' },
      },
    ]);
    expect(map(modify(c, { ...c, content: 'y' }))).toEqual([]);
  });

  it('a website decision is post.updated; bookmarks and follows go to the person only', () => {
    const w = { entity: 'WebsiteEntry', postId: 'p1', status: 'pending', review: null, actorId: 'u1' };
    expect(
      map(
        modify(w, {
          ...w,
          status: 'approved',
          review: { reviewedAt: 'now', reviewer: 'Boss', reason: null },
          actorId: 'boss',
        }),
      ),
    ).toEqual([{ type: 'post.updated', actorId: 'boss', payload: { postId: 'p1' }, audience: { kind: 'all' } }]);
    expect(map(modify(w, { ...w, hidden: true }))).toEqual([]);
    // A bookmark and a follow are private to the person who set them: one event to them, on and off.
    const personal = [
      {
        item: { entity: 'Bookmark', userId: 'u5', postId: 'p1', actorId: 'u5' },
        type: 'bookmark.updated',
        on: { postId: 'p1', bookmarked: true },
        off: { postId: 'p1', bookmarked: false },
      },
      {
        item: { entity: 'Follow', userId: 'u5', followingId: 'u6', actorId: 'u5' },
        type: 'follow.updated',
        on: { followingId: 'u6', following: true },
        off: { followingId: 'u6', following: false },
      },
    ];
    for (const { item, type, on, off } of personal) {
      expect(map(insert(item))).toEqual([
        { type, actorId: 'u5', payload: on, audience: { kind: 'user', userId: 'u5' } },
      ]);
      expect(map(remove(item))[0].payload).toEqual(off);
    }
  });
});
