import type { TransactItem } from '../db/table.ts';
import { POSTS_SORT_ATTRIBUTE } from './derived-from-person.ts';
import { directoryShardsLive } from './directory-migration-state.ts';
import { DirectoryPerson, DirectoryShardPosts, User } from './entities.ts';
import { postsAttribute, shardOf } from './listing.ts';

/**
 * The writes that move a person's `postCount` (shown on profiles and the directory, and the
 * directory's `posts` sort). The feed calls this inside the transaction that creates or removes a
 * post; the people area owns what else must move with it: the posts index's numeric sort key on the
 * profile item and on the person's directory row, and, while the directory shards are still read
 * (before migration 0013), the person's count in their shard. All are ADDs, so concurrent posts never
 * lose a count. The person must exist.
 */
export async function postCountWrites(userId: string, delta: number): Promise<TransactItem[]> {
  return [
    User.update(
      { id: userId },
      {
        UpdateExpression: 'ADD postCount :d, #sort :d',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#sort': POSTS_SORT_ATTRIBUTE },
        ExpressionAttributeValues: { ':d': delta },
      },
    ),
    // The row of a person not yet migrated (0013) is created holding the count only; 0013 completes it.
    DirectoryPerson.update(
      { id: userId },
      {
        UpdateExpression: 'ADD postCount :d, #sort :d SET entity = :e, id = :id',
        ExpressionAttributeNames: { '#sort': POSTS_SORT_ATTRIBUTE },
        ExpressionAttributeValues: { ':d': delta, ':e': DirectoryPerson.name, ':id': userId },
      },
    ),
    ...((await directoryShardsLive())
      ? [DirectoryShardPosts.add({ shard: shardOf(userId) }, { [postsAttribute(userId)]: delta })]
      : []),
  ];
}
