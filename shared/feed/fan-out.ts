import type { DynamoDBRecord } from 'aws-lambda';
import { postKey } from '../db/keys.ts';
import { getItem } from '../db/table.ts';
import { toItemChange } from '../live/change-feed.ts';
import { announce } from './announcements.ts';
import { cleanUpPost, cleanUpThread } from './cleanup.ts';
import { PollClosedNotice, ReplyNotice } from './entities.ts';
import type { CommentItem, PostItem } from './model.ts';
import { pollClosedNoticeFilter, sendPollClosedNotice } from './poll-closed-notices.ts';
import { replyNoticeFilter, sendReplyNotice } from './reply-notices.ts';
import { renderUpload } from './uploads.ts';

/**
 * The feed's stream consumer: work that must not hold up the request that caused it.
 * - A new announcement tells everybody (O(company) notifications), page by page from its notice
 *   (announcements.ts).
 * - A presigned image whose bytes arrived gets its renditions.
 * - A deleted post, or a deleted thread, has what it leaves behind removed (cleanup.ts).
 * - A closed poll's voters are told (O(voters) notifications), from its closing notice
 *   (poll-closed-notices.ts).
 * - A reply's thread is told (O(repliers) notifications), from the reply's notice (reply-notices.ts).
 */
export const fanOutFilters: Record<string, unknown>[] = [
  { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['Post'] }, isAnnouncement: { BOOL: [true] } } } },
  {
    eventName: ['MODIFY'],
    dynamodb: {
      NewImage: { entity: { S: ['PostUpload'] }, kind: { S: ['image'] }, status: { S: ['ready'] } },
      OldImage: { status: { S: ['awaiting'] } },
    },
  },
  { eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: ['Post'] } } } },
  { eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: ['Comment'] }, parentId: { NULL: [true] } } } },
  pollClosedNoticeFilter,
  replyNoticeFilter,
];

export async function fanOut(records: DynamoDBRecord[]): Promise<void> {
  for (const r of records) {
    const change = toItemChange(r);
    const item = change.newImage ?? change.oldImage;
    if (!item) continue;
    if (r.eventName === 'REMOVE') {
      if (item.entity === 'Post') await cleanUpPost(item as PostItem);
      if (item.entity === 'Comment' && !item.parentId) {
        const post = await getItem<PostItem>(postKey(item.postId), true);
        await cleanUpThread(item as CommentItem, post?.authorId);
      }
      continue;
    }
    if (item.entity === 'Post' && r.eventName === 'INSERT' && item.isAnnouncement) await announce(item.id);
    if (item.entity === 'PostUpload') await renderUpload(item.id);
    if (item.entity === PollClosedNotice.name && r.eventName === 'INSERT') await sendPollClosedNotice(item.postId);
    if (item.entity === ReplyNotice.name && r.eventName === 'INSERT') await sendReplyNotice(item.commentId);
  }
}
