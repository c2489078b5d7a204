import type { DynamoDBRecord } from 'aws-lambda';
import { page } from '../db/paging.ts';
import { isConditionFailure, transact, write } from '../db/table.ts';
import { toItemChange } from '../live/change-feed.ts';
import { inPool } from '../util/in-pool.ts';
import { Follow, FollowedPost, type FollowItem, PostListEntry, type PostListEntryItem } from './entities.ts';
import { postLists } from './post-lists.ts';

/**
 * Each person's following list (`GET /posts?following=true`): one `FollowedPost` entry per post of a
 * person they follow, in a partition of their own, so a page is one Query however many people they
 * follow (list-posts.ts). This stream consumer keeps it, in the background:
 * - a post entering its author's list (`AUTHOR#<id>`, lists.ts) goes to each follower's list, paged
 *   over the author's followers (gsi1), each entry written only while the follow exists (a condition
 *   check in its transaction), so an unfollow's clean-up cannot be overtaken by a late entry;
 * - a post leaving its author's list (hidden, deleted) leaves every follower's list;
 * - a new follow (or a follow the 0012 migration indexed) brings the author's posts, a removed follow
 *   takes them away, paged over the author's list.
 * The work is O(followers) per post and O(posts of the author) per follow, never on a request. A list is
 * behind by the consumer's delay (seconds); the reader covers that gap (list-posts.ts).
 */
const AUTHOR_PREFIX = postLists.author('');
const PAGE = 100;
const CONCURRENCY = 8;

const indexed = { S: [{ prefix: 'FOLLOWERS#' }] };

export const followingListFilters: Record<string, unknown>[] = [
  {
    eventName: ['INSERT', 'REMOVE'],
    dynamodb: { Keys: { pk: { S: [{ prefix: `POSTS#${AUTHOR_PREFIX}` }] } } },
  },
  { eventName: ['REMOVE'], dynamodb: { Keys: { pk: { S: [{ prefix: 'FOLLOWS#' }] } } } },
  { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [Follow.name] }, gsi1pk: indexed } } },
  // A follow stored before 0.4.0 gets its index from the 0012 migration: its list is built then.
  {
    eventName: ['MODIFY'],
    dynamodb: {
      NewImage: { entity: { S: [Follow.name] }, gsi1pk: indexed },
      OldImage: { gsi1pk: [{ exists: false }] },
    },
  },
];

const ignoreCondition = (err: unknown) => (isConditionFailure(err) ? undefined : Promise.reject(err));

/** Writes one post into one follower's list while they still follow its author. */
const addEntry = (userId: string, authorId: string, postId: string) =>
  transact([
    Follow.check({ userId, followingId: authorId }, { ConditionExpression: 'attribute_exists(pk)' }),
    FollowedPost.put({ userId, postId, authorId, actorId: authorId }),
  ]).catch(ignoreCondition);

const removeEntry = (userId: string, postId: string) => write(FollowedPost.remove({ userId, postId }));

/** Every follower of a person, page by page. */
async function forEachFollower(authorId: string, fn: (userId: string) => Promise<unknown>): Promise<void> {
  let cursor: string | undefined;
  do {
    const found = await Follow.query(
      { index: 'byFollowed', key: { followingId: authorId } },
      page({ limit: PAGE, cursor }),
    );
    await inPool(found.items, CONCURRENCY, async (f) => void (await fn(f.userId)));
    cursor = found.nextCursor ?? undefined;
  } while (cursor);
}

/** Every post of an author's list, page by page. */
async function forEachPostOf(authorId: string, fn: (postId: string) => Promise<unknown>): Promise<void> {
  let cursor: string | undefined;
  do {
    const found = await PostListEntry.query(
      { key: { list: postLists.author(authorId) } },
      page({ limit: PAGE, cursor }),
    );
    await inPool(found.items, CONCURRENCY, async (e) => void (await fn(e.postId)));
    cursor = found.nextCursor ?? undefined;
  } while (cursor);
}

export async function keepFollowingLists(records: DynamoDBRecord[]): Promise<void> {
  for (const r of records) {
    const change = toItemChange(r);
    const item = change.newImage ?? change.oldImage;
    if (PostListEntry.is(item) && item.list.startsWith(AUTHOR_PREFIX)) {
      const entry: PostListEntryItem = item;
      const authorId = entry.list.slice(AUTHOR_PREFIX.length);
      await forEachFollower(authorId, (userId) =>
        r.eventName === 'REMOVE' ? removeEntry(userId, entry.postId) : addEntry(userId, authorId, entry.postId),
      );
    } else if (Follow.is(item)) {
      const f: FollowItem = item;
      await forEachPostOf(f.followingId, (postId) =>
        r.eventName === 'REMOVE' ? removeEntry(f.userId, postId) : addEntry(f.userId, f.followingId, postId),
      );
    }
  }
}
