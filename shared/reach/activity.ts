import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { Comment, MustReadAck, Post, PostReaction } from '../feed/entities.ts';
import { companyValuesOf } from '../people/company-values.ts';
import { getUsers } from '../people/users.ts';
import { audienceIdOf } from './audience-seam.ts';
import { type Mark, PostSeen } from './entities.ts';
import { type MarkEntry, recordMarks } from './marks.ts';

/**
 * Reacted, commented and acknowledged, counted from the change feed (the `reach-marks` consumer): a
 * person's first reaction to a post (an INSERT, or a MODIFY that gives a reaction again after one was
 * taken back), first comment or reply on it, and acknowledgement of a must-read each record the mark
 * once (marks.ts). Taking a reaction back, deleting a comment: the mark stays counted (docs/reach.md).
 * The post's author is not counted on their own post, as they are not targeted by it.
 */
export const reachMarkFilters: Record<string, unknown>[] = [
  { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { entity: { S: [PostReaction.name] } } } },
  { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [Comment.name] } } } },
  { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { entity: { S: [MustReadAck.name] } } } },
];

type Found = { postId: string; userId: string; mark: Mark; at: string };

const image = (r: DynamoDBRecord, which: 'NewImage' | 'OldImage') => {
  const raw = r.dynamodb?.[which] as Record<string, AttributeValue> | undefined;
  return raw ? (unmarshall(raw as never) as Record<string, any>) : undefined;
};

/** The mark a record means, if any. */
export function markOf(r: DynamoDBRecord): Found | undefined {
  const now = image(r, 'NewImage');
  const was = image(r, 'OldImage');
  if (!now) return undefined;
  const sameKey = was && was.postId === now.postId && was.userId === now.userId;
  switch (now.entity) {
    case PostReaction.name:
      if (!now.reaction || (sameKey && was.reaction)) return undefined;
      return { postId: now.postId, userId: now.userId, mark: 'reacted', at: now.reactedAt ?? new Date().toISOString() };
    case Comment.name:
      return r.eventName === 'INSERT'
        ? { postId: now.postId, userId: now.authorId, mark: 'commented', at: now.createdAt }
        : undefined;
    case MustReadAck.name:
      if (now.status !== 'acknowledged' || (sameKey && was.status === 'acknowledged')) return undefined;
      return { postId: now.postId, userId: now.userId, mark: 'acknowledged', at: now.acknowledgedAt ?? now.addedAt };
    default:
      return undefined;
  }
}

export async function recordActivity(records: DynamoDBRecord[]): Promise<void> {
  const found = records.map(markOf).filter((f): f is Found => !!f && !!f.postId && !!f.userId);
  if (!found.length) return;
  const postIds = [...new Set(found.map((f) => f.postId))];
  const [posts, users, marks] = await Promise.all([
    Post.getMany(postIds.map((id) => ({ id }))),
    getUsers(found.map((f) => f.userId)),
    PostSeen.getMany(found.map((f) => ({ postId: f.postId, userId: f.userId }))),
  ]);
  const postById = new Map(posts.flatMap((p) => (p ? [[p.id, p]] : [])));
  const entries: MarkEntry[] = [];
  const taken = new Set<string>();
  found.forEach((f, i) => {
    const post = postById.get(f.postId);
    const user = users.get(f.userId);
    const key = `${f.postId}|${f.userId}|${f.mark}`;
    if (!post || !user || post.authorId === f.userId || taken.has(key)) return;
    if (marks[i]?.[`${f.mark}At`]) return; // already counted
    taken.add(key);
    entries.push({
      post: { postId: post.id, publishedAt: post.createdAt, audienceId: audienceIdOf(post) },
      userId: f.userId,
      values: companyValuesOf(user),
      mark: f.mark,
      at: f.at,
    });
  });
  await recordMarks(entries);
}
