import type { DynamoDBRecord } from 'aws-lambda';
import { toItemChange } from '../live/change-feed.ts';
import { cleanUpPost, cleanUpThread } from './cleanup.ts';
import { Comment, PollClosedNotice, Post, PostUpload, ReplyNotice } from './entities.ts';
import { pollClosedNoticeFilter, sendPollClosedNotice } from './poll-closed-notices.ts';
import { replyNoticeFilter, sendReplyNotice } from './reply-notices.ts';
import { renderUpload } from './uploads.ts';

/**
 * The feed's stream consumer: work that must not hold up the request that caused it, and never
 * company-wide: an announcement to everybody goes to the `company-fan-out` consumer
 * (company-fan-out.ts), so that no reply, comment or mention waits behind it.
 * - A presigned image whose bytes arrived gets its renditions.
 * - A deleted post, or a deleted thread, has what it leaves behind removed (cleanup.ts).
 * - A closed poll's voters are told (O(voters) notifications), from its closing notice
 *   (poll-closed-notices.ts).
 * - A reply's thread is told (O(repliers) notifications), from the reply's notice (reply-notices.ts).
 */
export const fanOutFilters: Record<string, unknown>[] = [
  {
    eventName: ['MODIFY'],
    dynamodb: {
      NewImage: { entity: { S: [PostUpload.name] }, kind: { S: ['image'] }, status: { S: ['ready'] } },
      OldImage: { status: { S: ['awaiting'] } },
    },
  },
  { eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: [Post.name] } } } },
  { eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: [Comment.name] }, parentId: { NULL: [true] } } } },
  pollClosedNoticeFilter,
  replyNoticeFilter,
];

export async function fanOut(records: DynamoDBRecord[]): Promise<void> {
  for (const r of records) {
    const change = toItemChange(r);
    const item = change.newImage ?? change.oldImage;
    if (!item) continue;
    if (r.eventName === 'REMOVE') {
      if (Post.is(item)) await cleanUpPost(item);
      if (Comment.is(item) && !item.parentId) {
        const post = await Post.get({ id: item.postId }, { consistent: true });
        await cleanUpThread(item, post?.authorId);
      }
      continue;
    }
    if (PostUpload.is(item)) await renderUpload(item.id);
    if (PollClosedNotice.is(item) && r.eventName === 'INSERT') await sendPollClosedNotice(item.postId);
    if (ReplyNotice.is(item) && r.eventName === 'INSERT') await sendReplyNotice(item.commentId);
  }
}
