import { describe, expect, it } from 'vitest';
import { Comment, FeedScore, Post } from '../../shared/feed/entities.ts';
import { scoreOf } from '../../shared/feed/score-formula.ts';
import { scoreWrites } from '../../shared/feed/scores.ts';
import { WebsiteEntry, type WebsiteEntryItem } from '../../shared/website/entities.ts';
import { websiteWrites } from '../../shared/website/records.ts';

/**
 * The index attributes of the feed's and the office updates' items come from their declarations:
 * a website record is in the queue and on the public list exactly when its state says so, and a
 * feed score's numeric sort keys move by the delta of what they order by.
 */
const record = (fields: Partial<WebsiteEntryItem> = {}) =>
  WebsiteEntry.item({
    postId: 'p1',
    status: 'pending',
    review: null,
    publishedAt: null,
    hidden: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    actorId: 'u1',
    ...fields,
  });
/** The record as stored, index attributes included. */
const stored = (e: WebsiteEntryItem): Record<string, unknown> => e;

const putItemOf = (entry: object) => (entry as { Put: { Item: Record<string, unknown> } }).Put.Item;

describe('WebsiteEntry declaration', () => {
  it('queues a record under its status and lists it publicly only while approved, published and shown', () => {
    const pending = stored(record());
    expect(pending).toMatchObject({ pk: 'POST#p1', sk: 'WEBSITE', gsi1pk: 'WEBSITE#pending', gsi1sk: 'p1' });
    expect(pending).not.toHaveProperty('gsi2pk');
    const approved = stored(record({ status: 'approved', publishedAt: '2026-01-02T00:00:00.000Z' }));
    expect(approved.gsi1pk).toBe('WEBSITE#approved');
    expect(approved.gsi2pk).toBe('OFFICE_UPDATES');
    expect(approved.gsi2sk).toBe('2026-01-02T00:00:00.000Z#p1');
  });

  it('drops the index attributes a record read from the table no longer has (hidden: in no index)', () => {
    const approved = record({ status: 'approved', publishedAt: '2026-01-02T00:00:00.000Z' });
    const [put] = websiteWrites(approved, { ...approved, hidden: true });
    const written = putItemOf(put);
    for (const attr of ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk']) expect(written).not.toHaveProperty(attr);
    expect(written).toMatchObject({ pk: 'POST#p1', sk: 'WEBSITE', entity: 'WebsiteEntry', hidden: true });
  });
});

describe('FeedScore declaration', () => {
  it('moves the leaderboard and contributors sort keys by the delta of the score and of the posts', () => {
    const delta = { reactions: 2, comments: 1, shares: 1, posts: 3 };
    const [total] = scoreWrites([{ userId: 'u1', at: '2026-01-01T10:00:00.000Z', ...delta }], 'u2');
    const { UpdateExpression, ExpressionAttributeNames, ExpressionAttributeValues } = (
      total as unknown as { Update: Record<string, any> }
    ).Update;
    const byName = (name: string) =>
      Object.keys(ExpressionAttributeNames).find((k) => ExpressionAttributeNames[k] === name)!;
    const attribute = (name: string) => ExpressionAttributeValues[byName(name).replace('#', ':')];
    const indexed = FeedScore.indexAttributes({ userId: 'u1', ...delta });
    expect(Object.keys(indexed).sort()).toEqual(['gsi6pk', 'gsi6sk', 'gsi7pk', 'gsi7sk']);
    expect(UpdateExpression).toMatch(new RegExp(`ADD .*${byName('gsi6sk')} `));
    expect(attribute('gsi6sk')).toBe(scoreOf(delta));
    expect(attribute('gsi7sk')).toBe(3);
    expect(attribute('gsi6pk')).toBe('LEADERBOARD');
    expect(attribute('entity')).toBe('FeedScore');
  });
});

describe('the feed declarations keep the stored form', () => {
  const comment = {
    id: 'c2',
    postId: 'p1',
    parentId: null,
    authorId: 'u1',
    content: 'hi',
    mentionedIds: [],
    likeCount: 0,
    dislikeCount: 0,
    replyCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    editedAt: null,
    actorId: 'u1',
  };

  it('lists a top-level comment under its post and a reply under its thread, on the one gsi1', () => {
    expect(Comment.item(comment)).toMatchObject({
      pk: 'COMMENT#c2',
      sk: 'COMMENT',
      gsi1pk: 'COMMENTS#p1',
      gsi1sk: 'c2',
    });
    expect(Comment.item({ ...comment, parentId: 'c1' })).toMatchObject({ gsi1pk: 'REPLIES#c1', gsi1sk: 'c2' });
  });

  it('keeps a poll on the closing-polls index until its closing is announced', () => {
    const post = {
      id: 'p1',
      authorId: 'u1',
      content: '',
      tags: [],
      images: [],
      videos: [],
      documents: [],
      poll: { question: 'Q', description: '', options: [], closesAt: '2026-02-01T00:00:00.000Z', closedAt: null },
      recognition: null,
      isAnnouncement: false,
      hidden: false,
      sharedPostId: null,
      mentionedIds: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      editedAt: null,
      actorId: 'u1',
      rev: 0,
    };
    expect(Post.item(post)).toMatchObject({
      pk: 'POST#p1',
      sk: 'POST',
      gsi1pk: 'POLLS_CLOSING',
      gsi1sk: '2026-02-01T00:00:00.000Z#p1',
    });
    const announced = Post.item({ ...post, pollClosedNotifiedAt: '2026-02-01T00:01:00.000Z' });
    expect(announced).not.toHaveProperty('gsi1pk');
    expect(announced).not.toHaveProperty('gsi1sk');
    expect(Post.item({ ...post, poll: null })).not.toHaveProperty('gsi1pk');
  });
});
