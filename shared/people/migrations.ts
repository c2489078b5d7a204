import type { LegacyForm } from '../migrations/stored-form.ts';

/** Older stored forms of the people area's entities (CHANGELOG.md, 0.2.0). */
const shardOf = (pk: string) => Number(pk.slice('DIRSHARD#'.length));

export const peopleLegacyForms: LegacyForm[] = [
  {
    entity: 'DirectoryShardPosts',
    matches: (i) =>
      i.pk.startsWith('DIRSHARD#') && i.sk === 'POSTS' && (i.entity !== 'DirectoryShardPosts' || i.shard === undefined),
    fields: (i) => ({ shard: shardOf(i.pk) }),
    change:
      "a directory shard's post counts are the entity DirectoryShardPosts (was DirectoryShard) and store their shard",
  },
  {
    entity: 'DirectoryShard',
    matches: (i) => i.entity === 'DirectoryShard' && i.sk === 'ROWS' && i.shard === undefined,
    fields: (i) => ({ shard: shardOf(i.pk) }),
    change: 'directory shards store their shard number (shard)',
  },
  {
    entity: 'TeamName',
    matches: (i) => i.entity === 'TeamName' && i.nameLower === undefined,
    fields: (i) => ({ nameLower: i.pk.slice('TEAMNAME#'.length) }),
    change: 'team-name claims store the lower-cased name (nameLower)',
  },
];
