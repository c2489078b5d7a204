import type { Item, TransactItem } from '../db/table.ts';
import type { DataMigration } from '../migrations/migration.ts';
import type { LegacyForm } from '../migrations/stored-form.ts';
import { DirectoryShard, DirectoryShardPosts, Team, TeamMember } from './entities.ts';
import { legacyPostsAttribute, legacyRowAttribute, postsAttribute, rowAttribute } from './listing.ts';

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

/**
 * `0007-team-memberships`: every team created before 0.2.0 counted its membership items
 * (`memberships`, what a deletion unassigns). The code moves `memberships` and `membershipMoves` with
 * ADD in the transaction of every membership change from this release on, so a team not yet migrated
 * may already hold a partial `memberships`: the migration counts the team's membership items
 * (consistently) and sets the count, conditioned on `membershipMoves` being what it was read as before
 * the count (it only ever grows), so a membership change in between makes the runner read and count again.
 */
export const teamMembershipsMigration: DataMigration = {
  id: '0007-team-memberships',
  description: 'teams count their membership items (memberships), what a deletion unassigns',
  entities: ['Team'],
  pageSize: 20,
  async migrate(item) {
    if (!Team.is(item)) return [];
    const team = item;
    if (team.membershipsCounted) return [];
    const members = await TeamMember.queryAll({ key: { teamId: team.id }, consistent: true });
    const held =
      team.membershipMoves === undefined
        ? { expression: 'attribute_not_exists(membershipMoves)', values: {} }
        : { expression: 'membershipMoves = :moves', values: { ':moves': team.membershipMoves } };
    return [
      Team.update(
        { id: team.id },
        {
          UpdateExpression: 'SET memberships = :n, membershipsCounted = :t',
          ConditionExpression: `attribute_exists(pk) AND ${held.expression}`,
          ExpressionAttributeValues: { ':n': members.length, ':t': true, ...held.values },
        },
      ),
    ];
  },
};

/** Old attributes one update moves at most: its expressions stay well within DynamoDB's 4 KB each. */
const RENAMES_PER_UPDATE = 25;

/**
 * A directory shard item's 0.1.0 attributes under their current names (listing.ts): each row
 * `r_<id>` becomes `row_<id>`, unless the person's row was written since (then it is the one that
 * holds, and the old one just goes); each post count `p_<id>` is added to `posts_<id>` (which counts
 * the posts since the upgrade, from 0) and removed. One update per item (per 25 attributes), conditioned
 * on each old attribute still being there as read, and each row not written since the read, so a
 * change in between makes the runner read the item again and nothing is counted twice. No request
 * writes an old name; a removal of a row removes it under both (derived-from-person.ts).
 */
export function directoryAttributeNamesWrites(item: Item): TransactItem[] {
  const rows = item.sk === 'ROWS';
  if (!rows && item.sk !== 'POSTS') return [];
  const legacyPrefix = (rows ? legacyRowAttribute : legacyPostsAttribute)('');
  const current = rows ? rowAttribute : postsAttribute;
  const old = Object.keys(item)
    .filter((name) => name.startsWith(legacyPrefix))
    .slice(0, RENAMES_PER_UPDATE);
  if (old.length === 0) return [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const conditions: string[] = [];
  old.forEach((name, i) => {
    const now = current(name.slice(legacyPrefix.length));
    names[`#o${i}`] = name;
    if (rows && item[now] !== undefined) {
      conditions.push(`attribute_exists(#o${i})`); // written since: the old row just goes
      return;
    }
    names[`#n${i}`] = now;
    values[`:o${i}`] = item[name];
    if (rows) {
      sets.push(`#n${i} = :o${i}`);
      conditions.push(`attribute_exists(#o${i}) AND attribute_not_exists(#n${i})`);
    } else {
      sets.push(`#n${i} = if_not_exists(#n${i}, :zero) + :o${i}`);
      conditions.push(`#o${i} = :o${i}`);
    }
  });
  if (!rows) values[':zero'] = 0;
  const entity = rows ? DirectoryShard : DirectoryShardPosts;
  return [
    entity.updateStored(item as { pk: string; sk: string }, {
      UpdateExpression: `${sets.length ? `SET ${sets.join(', ')} ` : ''}REMOVE ${old.map((_, i) => `#o${i}`).join(', ')}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    }),
  ];
}

/**
 * `0008-directory-attribute-names`: the directory shards' 0.1.0 attribute names (`r_<userId>`,
 * `p_<userId>`), renamed by 0.2.0 without a migration (found by the upgrade test: the directory's
 * post counts read 0 for everyone who had posted before the upgrade).
 */
export const directoryAttributeNamesMigration: DataMigration = {
  id: '0008-directory-attribute-names',
  description: "Directory shards' rows and post counts under their current names (r_/p_ became row_/posts_)",
  entities: ['DirectoryShard', 'DirectoryShardPosts'],
  migrate: directoryAttributeNamesWrites,
};
