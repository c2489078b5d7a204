import type { DataMigration } from '../migrations/migration.ts';
import type { LegacyForm } from '../migrations/stored-form.ts';
import { Team, TeamMember } from './entities.ts';

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
