import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { newSortableId } from '../../shared/db/ids.ts';
import { transact } from '../../shared/db/table.ts';
import { Comment, ReplyNotice } from '../../shared/feed/entities.ts';
import { fanOut } from '../../shared/feed/fan-out.ts';
import { replyNotice, sendReplyNotice } from '../../shared/feed/reply-notices.ts';
import { listNotifications } from '../../shared/notifications/notifications.ts';
import { api, newMember } from '../support/api.ts';
import { createPost, notificationsOf, waitFor } from './helpers.ts';

/** Waits until the feed fan-out has finished the reply's notice. */
const noticeDone = (commentId: string) =>
  waitFor(async () => {
    const n = await ReplyNotice.get({ commentId: commentId }, { consistent: true });
    return n?.doneAt ? n : undefined;
  }, 20_000);

/** The stream record of the notice's INSERT, as the fan-out consumer receives it. */
const insertRecord = (item: object): DynamoDBRecord => ({
  eventName: 'INSERT',
  dynamodb: { NewImage: marshall(item, { removeUndefinedValues: true }) as never },
});

const mine = async (userId: string, commentId: string) =>
  (await listNotifications(userId, 50)).filter((n) => n.commentId === commentId);

describe('reply notifications (the feed fan-out, from the reply notice)', () => {
  it('a reply answers as before and the thread is told in the background, each person once', async () => {
    const [author, starter, early, late] = [await newMember(), await newMember(), await newMember(), await newMember()];
    const p = await createPost(author.token, { content: 'thread me' });
    const top = await api('POST', `/posts/${p.id}/comments`, { token: starter.token, body: { content: 'first' } });
    expect(top.status).toBe(201);
    const r1 = await api('POST', `/posts/${p.id}/comments`, {
      token: early.token,
      body: { content: 'early reply', parentId: top.body.id },
    });
    expect(r1.status).toBe(201);
    const r2 = await api('POST', `/posts/${p.id}/comments`, {
      token: late.token,
      body: { content: 'late reply', parentId: top.body.id },
    });
    expect(r2.status).toBe(201);
    expect(r2.body).toMatchObject({ postId: p.id, parentId: top.body.id, content: 'late reply', replyCount: 0 });

    const notice = await noticeDone(r2.body.id);
    expect(notice).toMatchObject({ postId: p.id, thread: [starter.id, early.id], sent: 3 });
    const kinds = async (token: string) =>
      (await notificationsOf(token)).filter((n) => n.commentId === r2.body.id).map((n) => n.kind);
    expect(await kinds(starter.token)).toEqual(['reply']);
    expect(await kinds(early.token)).toEqual(['reply']);
    expect(await kinds(author.token)).toEqual(['comment']);
    expect(await kinds(late.token)).toEqual([]); // nobody of their own reply
  });

  it('tells many repliers page by page, each once, however often the record is delivered', async () => {
    const [author, starter, replier] = [await newMember(), await newMember(), await newMember()];
    const p = await createPost(author.token, { content: 'a long thread' });
    const top = await api('POST', `/posts/${p.id}/comments`, { token: starter.token, body: { content: 'first' } });
    // 110 earlier repliers (three pages of 49 with the starter and the post's author): notifications need only ids.
    const repliers = Array.from({ length: 110 }, () => `replier-${randomUUID()}`);
    const now = new Date();
    const reply = Comment.item({
      id: newSortableId(now),
      postId: p.id,
      parentId: top.body.id,
      authorId: replier.id,
      content: 'me too',
      mentionedIds: [],
      likeCount: 0,
      dislikeCount: 0,
      replyCount: 0,
      createdAt: now.toISOString(),
      editedAt: null,
      actorId: replier.id,
    });
    const notice = replyNotice(reply, [], [starter.id, ...repliers]);
    // Written as the reply request writes them; the runtime's fan-out picks the notice up as well, so
    // it races the deliveries below for the same pages.
    await transact([Comment.create(reply), ReplyNotice.create(notice)]);
    const record = insertRecord(notice);
    await Promise.all([fanOut([record]), fanOut([record]), sendReplyNotice(reply.id)]);
    const done = await noticeDone(reply.id);
    expect(done.step).toBe(3);
    expect(done.sent).toBe(repliers.length + 2);
    for (const id of [repliers[0], repliers[47], repliers[48], repliers[109]]) {
      expect((await mine(id, reply.id)).map((n) => n.kind)).toEqual(['reply']);
    }
    expect((await mine(starter.id, reply.id)).map((n) => n.kind)).toEqual(['reply']);
    expect((await mine(author.id, reply.id)).map((n) => n.kind)).toEqual(['comment']);
    await fanOut([record]); // a redelivery after it is done sends nothing
    expect((await ReplyNotice.get({ commentId: reply.id }, { consistent: true }))?.sent).toBe(repliers.length + 2);
    expect(await mine(repliers[109], reply.id)).toHaveLength(1);
  });
});
