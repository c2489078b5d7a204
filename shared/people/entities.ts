import { birthdaysEntry } from '../calendar/birthday-index.ts';
import { entity } from '../db/entity.ts';
import {
  birthdaysIndex,
  DIRECTORY_PARTITION,
  directoryByJoinedIndex,
  directoryByNameIndex,
  directoryByPostsIndex,
  directoryPostsKey,
  directoryRowsKey,
  facetKey,
  featuredIndex,
  membersIndex,
  roleIndex,
  teamKey,
  teamMemberKey,
  teamNameKey,
  teamsIndex,
  userKey,
} from '../db/keys.ts';
import type { TeamItem } from './profile.ts';
import type { UserItem } from './users.ts';

/** The people area's entities (docs/data-model.md, People), each declared once. */

/** Listed in the directory, the org chart and the facets, and counted in team sizes and report counts. */
export const isListed = (u: Pick<UserItem, 'status'>) => u.status !== 'deactivated';

/** The name as the directory sorts it: accents folded, case ignored. */
export const nameKey = (name: string) => name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

const listed = (u: Pick<UserItem, 'status'>) => (isListed(u) ? DIRECTORY_PARTITION : undefined);
const featured = (u: Pick<UserItem, 'isFeatured' | 'featuredAt'>) => !!(u.isFeatured && u.featuredAt);

/**
 * A person's profile (also their account record) and every index it is in: members, role, featured
 * (sparse), birthdays (the calendar's, sparse) and the directory's three sorts, whose partition keys
 * are present only while the person is listed, so a deactivated person drops out of all three. The
 * posts sort key (gsi6sk) is the person's `postCount`: written with the whole item, then moved with ADD
 * together with `postCount` (`postCountWrites`), so a change of the person never rewrites it.
 */
export const Person = entity<UserItem, [userId: string]>({
  name: 'User',
  key: userKey,
  keyOf: (u) => [u.id],
  indexes: [
    { index: membersIndex.index, pk: () => membersIndex.pk, sk: (u) => membersIndex.sk(u.joinedAt, u.id) },
    { index: roleIndex.index, pk: (u) => roleIndex.pk(u.role), sk: (u) => roleIndex.sk(u.id) },
    {
      index: featuredIndex.index,
      pk: (u) => (featured(u) ? featuredIndex.pk : undefined),
      sk: (u) => (featured(u) ? featuredIndex.sk(u.featuredAt as string, u.id) : undefined),
    },
    {
      index: birthdaysIndex.index,
      pk: (u) => birthdaysEntry(u.id, u.dateOfBirth)?.pk,
      sk: (u) => birthdaysEntry(u.id, u.dateOfBirth)?.sk,
    },
    { index: directoryByNameIndex.index, pk: listed, sk: (u) => directoryByNameIndex.sk(nameKey(u.name), u.id) },
    { index: directoryByPostsIndex.index, pk: listed, sk: (u) => u.postCount ?? 0 },
    { index: directoryByJoinedIndex.index, pk: listed, sk: (u) => directoryByJoinedIndex.sk(u.joinedAt) },
  ],
});

/** Who is on a team (every status), kept with the person's `teamId`. */
export interface TeamMemberItem {
  pk: string;
  sk: string;
  entity: 'TeamMember';
  teamId: string;
  userId: string;
  actorId?: string;
}
export const TeamMember = entity<TeamMemberItem, [teamId: string, userId: string]>({
  name: 'TeamMember',
  key: teamMemberKey,
  keyOf: (m) => [m.teamId, m.userId],
});

/** A team as stored: its name also lower-cased, the key of its name claim and of the teams list's order. */
export interface StoredTeam extends TeamItem {
  pk: string;
  sk: string;
  entity: 'Team';
  nameLower: string;
  createdAt: string;
  actorId: string;
  /**
   * Membership items of the team (`TeamMember`, people of every status whose `teamId` names it), moved
   * with ADD in the transaction of every membership change: what a deletion unassigns.
   */
  memberships?: number;
  /** Every membership change adds one (never goes back): how migration 0007 knows its count held. */
  membershipMoves?: number;
  /** `memberships` holds the count (set at creation, or by migration 0007 for teams created before). */
  membershipsCounted?: boolean;
  /** The deletion's background clearing (team-deletion.ts): people unassigned so far, last page's time. */
  cleared?: number;
  clearingAt?: string;
}
/**
 * A team, listed by name on gsi1. A deleted team keeps its item, marked `deletingAt`, until the
 * background clearing has unassigned its people; every read treats it as no team.
 */
export const Team = entity<StoredTeam, [teamId: string]>({
  name: 'Team',
  key: teamKey,
  keyOf: (t) => [t.id],
  indexes: [{ index: teamsIndex.index, pk: () => teamsIndex.pk, sk: (t) => teamsIndex.sk(t.nameLower, t.id) }],
});

/** The claim of a team name (case-insensitively unique), written and removed with the team's name. */
export interface TeamNameItem {
  pk: string;
  sk: string;
  entity: 'TeamName';
  /** The claimed name, lower-cased: the claim's key. */
  nameLower: string;
  teamId: string;
  actorId: string;
}
export const TeamName = entity<TeamNameItem, [nameLower: string]>({
  name: 'TeamName',
  key: teamNameKey,
  keyOf: (c) => [c.nameLower],
});

/**
 * One shard of the directory projection: a compact row (`row_<userId>`, see derived-from-person.ts) per
 * listed person whose id falls in the shard. Rows are set and removed in place, one person at a time.
 */
export interface DirectoryShardItem {
  pk: string;
  sk: string;
  entity: 'DirectoryShard';
  /** The shard's number: its key. */
  shard: number;
  [row: `row_${string}`]: unknown[];
}
export const DirectoryShard = entity<DirectoryShardItem, [shard: number]>({
  name: 'DirectoryShard',
  key: directoryRowsKey,
  keyOf: (s) => [s.shard],
});

/** The post counts (`posts_<userId>`) of a directory shard's people, moved with ADD by `postCountWrites`. */
export interface DirectoryShardPostsItem {
  pk: string;
  sk: string;
  entity: 'DirectoryShardPosts';
  /** The shard's number: its key. */
  shard: number;
  [count: `posts_${string}`]: number;
}
export const DirectoryShardPosts = entity<DirectoryShardPostsItem, [shard: number]>({
  name: 'DirectoryShardPosts',
  key: directoryPostsKey,
  keyOf: (s) => [s.shard],
});

export type FacetKind = 'skill' | 'title' | 'location';
/**
 * A distinct skill, title or location of listed people, with how many hold it (`people`, moved with ADD).
 * Its key is the lower-cased value: the first spelling seen is the one shown.
 */
export interface DirectoryFacetItem {
  pk: string;
  sk: string;
  entity: 'DirectoryFacet';
  kind: FacetKind;
  value: string;
  people: number;
}
export const DirectoryFacet = entity<DirectoryFacetItem, [kind: FacetKind, valueLower: string]>({
  name: 'DirectoryFacet',
  key: facetKey,
  keyOf: (f) => [f.kind, f.value.toLowerCase()],
});
