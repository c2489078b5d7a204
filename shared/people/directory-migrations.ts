import type { TransactItem } from '../db/table.ts';
import type { DataMigration } from '../migrations/migration.ts';
import { DIRECTORY_ROWS_MIGRATION, DIRECTORY_SHARDS_REMOVED_MIGRATION } from './directory-migration-state.ts';
import { rowOf, syncTerms } from './directory-terms.ts';
import { DirectoryPerson, DirectoryShard, DirectoryShardPosts, User } from './entities.ts';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * `0013-directory-rows` (expand): every person's directory row and terms, built from their profile.
 * The row is written whole with the profile's post count, in a transaction checking that the profile's
 * `rev` and `postCount` are still what was read (a change or a post meanwhile: read again); a row
 * already in step (written by a change since the upgrade) is left as it is. Then the person's terms are
 * brought to the row (`syncTerms`, its own rev-checked transactions). Until it is done, `GET /people`
 * reads the shards and the people area keeps writing them (directory-migration-state.ts).
 */
export const directoryRowsMigration: DataMigration = {
  id: DIRECTORY_ROWS_MIGRATION,
  description: "Every person's directory row (DirectoryPerson) and terms (DirectoryTerm), built from their profile",
  entities: ['User'],
  async migrate(item) {
    if (!User.is(item)) return [];
    const user = item;
    const rev = user.rev ?? 0;
    const wanted = rowOf({ ...user, postCount: user.postCount ?? 0 } as Parameters<typeof rowOf>[0], rev);
    const row = await DirectoryPerson.get({ id: user.id }, { consistent: true });
    // A row a change wrote since the upgrade is in step (its `rev` is the one of the last change that moved it).
    const stale =
      !row ||
      row.rev === undefined ||
      (Object.keys(wanted) as (keyof typeof wanted)[]).some((k) => k !== 'rev' && !same(row[k], wanted[k]));
    if (!stale) {
      await syncTerms(user.id, row);
      return [];
    }
    const held = [
      user.rev === undefined ? 'attribute_not_exists(rev)' : 'rev = :rev',
      user.postCount === undefined ? 'attribute_not_exists(postCount)' : 'postCount = :pc',
    ];
    const values = {
      ...(user.rev === undefined ? {} : { ':rev': user.rev }),
      ...(user.postCount === undefined ? {} : { ':pc': user.postCount }),
    };
    const writes: TransactItem[] = [
      User.check(
        { id: user.id },
        {
          ConditionExpression: `attribute_exists(pk) AND ${held.join(' AND ')}`,
          ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        },
      ),
      DirectoryPerson.put(wanted),
    ];
    return writes;
  },
};

/**
 * `0014-directory-shards-removed` (contract): the directory shards and their post counts, read by no
 * request once 0013 is done (it runs after it), deleted.
 */
export const directoryShardsRemovedMigration: DataMigration = {
  id: DIRECTORY_SHARDS_REMOVED_MIGRATION,
  description: 'The directory shards (DirectoryShard, DirectoryShardPosts), replaced by the per-person rows, deleted',
  entities: ['DirectoryShard', 'DirectoryShardPosts'],
  migrate(item) {
    if (item.sk === 'ROWS') return [DirectoryShard.removeStored(item as { pk: string; sk: string })];
    if (item.sk === 'POSTS') return [DirectoryShardPosts.removeStored(item as { pk: string; sk: string })];
    return [];
  },
};
