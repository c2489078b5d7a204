import { birthdaysEntry } from '../calendar/birthday-index.ts';
import { entity } from '../db/entity.ts';
import {
  birthdaysIndex,
  DIRECTORY_PARTITION,
  directoryByJoinedIndex,
  directoryByNameIndex,
  directoryByPostsIndex,
  featuredIndex,
  membersIndex,
  roleIndex,
  teamKey,
  teamMemberKey,
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
 * posts sort key (gsi6sk) is moved only with ADD by `postCountWrites`, never recomputed.
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
    { index: directoryByPostsIndex.index, pk: listed },
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
}
/** A team, listed by name on gsi1. */
export const Team = entity<StoredTeam, [teamId: string]>({
  name: 'Team',
  key: teamKey,
  keyOf: (t) => [t.id],
  indexes: [{ index: teamsIndex.index, pk: () => teamsIndex.pk, sk: (t) => teamsIndex.sk(t.nameLower, t.id) }],
});
