import type { TransactItem } from '../db/table.ts';
import { POSTS_SORT_ATTRIBUTE } from './derived-from-person.ts';
import { DirectoryShardPosts, User } from './entities.ts';
import { postsAttribute, shardOf } from './listing.ts';

/**
 * The writes that move a person's `postCount` (shown on profiles and the directory, and the
 * directory's `posts` sort). The feed calls this inside the transaction that creates or removes a
 * post; the people area owns what else must move with it: the posts index's numeric sort key on the
 * profile item, and the person's count in their directory shard (the filtered `posts` sort).
 * Both are ADDs, so concurrent posts never lose a count. The person must exist.
 */
export function postCountWrites(userId: string, delta: number): TransactItem[] {
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
    DirectoryShardPosts.add({ shard: shardOf(userId) }, { [postsAttribute(userId)]: delta }),
  ];
}
