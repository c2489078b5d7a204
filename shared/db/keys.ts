/**
 * Every key pattern and index use of the single table, defined once. Entities name their builders
 * after what they address. `docs/data-model.md` lists each access pattern, the key it uses and its cost.
 *
 * Index conventions (all overloaded, ALL projection; see table-definition.ts):
 * - gsi1..gsi5 carry `<index>pk` / `<index>sk` strings; each entity below says which it fills.
 *
 * Items written by grievance flows in the anonymous part of the table carry `anon: true`
 * (ANON_ATTRIBUTE) so the change-feed consumer's event-source filter drops them before they reach
 * it. A person's own items (notifications) never carry it: it would mark them.
 */
export { ANON_ATTRIBUTE, type Key } from './table-definition.ts';

import type { Key } from './table-definition.ts';

// ---------------------------------------------------------------- accounts and sessions
/** A person's profile (also their account record). gsi1 = every member by joining time. */
export const userKey = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'PROFILE' });
export const membersIndex = {
  index: 'gsi1' as const,
  pk: 'MEMBERS',
  sk: (joinedAt: string, userId: string) => `${joinedAt}#${userId}`,
};
/** The password hash lives apart from the profile so profile reads never carry it. */
export const credentialsKey = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'CREDENTIALS' });
/** Uniqueness of e-mail addresses (stored lower-case) and sign-in lookup. */
export const emailKey = (email: string): Key => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' });
/** People by role, for "is there a super admin" and "last active super admin" checks. gsi2 on the profile. */
export const roleIndex = {
  index: 'gsi2' as const,
  pk: (role: string) => `ROLE#${role}`,
  sk: (userId: string) => userId,
};
/** People pinned to Top Contributors, in the order they were featured. gsi3 on the profile (sparse). */
export const featuredIndex = {
  index: 'gsi3' as const,
  pk: 'FEATURED',
  sk: (featuredAt: string, userId: string) => `${featuredAt}#${userId}`,
};

/** A session, addressed by the SHA-256 of its token (the token itself is never stored). gsi1 = a person's sessions. */
export const sessionKey = (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' });
export const sessionsIndex = {
  index: 'gsi1' as const,
  pk: (userId: string) => `SESSIONS#${userId}`,
  sk: (createdAt: string, sessionId: string) => `${createdAt}#${sessionId}`,
};
/** Password evaluations of sign-ins per e-mail address within the throttling window (shared/auth/throttle.ts). */
export const signInThrottleKey = (email: string): Key => ({ pk: `SIGNIN#${email.toLowerCase()}`, sk: 'THROTTLE' });
/** Evaluations of a signed-in person's current password (change-password) within the throttling window. */
export const passwordCheckThrottleKey = (userId: string): Key => ({ pk: `PWCHECK#${userId}`, sk: 'THROTTLE' });
/** A password-reset token, addressed by its hash. */
export const resetTokenKey = (tokenHash: string): Key => ({ pk: `RESET#${tokenHash}`, sk: 'RESET' });

// ---------------------------------------------------------------- people, teams (issue: people)
/*
 * Indexes on the person's profile item (`userKey`): gsi1 members, gsi2 role, gsi3 featured (above),
 * gsi5 birthdays (calendar), and the directory's three sorts below: gsi4 by name, gsi6 by post count
 * (numeric, moved by `postCountWrites`), gsi7 by joining time (numeric, epoch ms). The directory ones are
 * sparse: a deactivated person loses the partition attributes and drops out of all three.
 */
export const DIRECTORY_PARTITION = 'DIRECTORY';
export const directoryByNameIndex = {
  index: 'gsi4' as const,
  pk: DIRECTORY_PARTITION,
  sk: (nameKey: string, userId: string) => `${nameKey}#${userId}`,
};
export const directoryByPostsIndex = { index: 'gsi6' as const, pk: DIRECTORY_PARTITION };
export const directoryByJoinedIndex = {
  index: 'gsi7' as const,
  pk: DIRECTORY_PARTITION,
  sk: (joinedAt: string) => Date.parse(joinedAt),
};
/**
 * The directory projection for free text and filters: a fixed number of shard items, each holding one
 * compact row (`row_<userId>`) per listed person of that shard, and a sibling holding their post counts
 * (`posts_<userId>`, moved with ADD by `postCountWrites`). A person's shard follows from their id alone.
 */
export const DIRECTORY_SHARDS = 64;
export const directoryRowsKey = (shard: number): Key => ({
  pk: `DIRSHARD#${String(shard).padStart(2, '0')}`,
  sk: 'ROWS',
});
export const directoryPostsKey = (shard: number): Key => ({
  pk: `DIRSHARD#${String(shard).padStart(2, '0')}`,
  sk: 'POSTS',
});
/** Distinct skills, titles and locations of listed people, each with how many people hold it (facets, skills). */
export const FACETS_PARTITION = 'FACETS';
export const facetKey = (kind: 'skill' | 'title' | 'location', valueLower: string): Key => ({
  pk: FACETS_PARTITION,
  sk: `${kind}#${valueLower}`,
});
export const facetsPrefix = (kind: 'skill' | 'title' | 'location') => ({ pk: FACETS_PARTITION, skPrefix: `${kind}#` });

/** A team. gsi1 = every team (the list is small and unpaged). */
export const teamKey = (teamId: string): Key => ({ pk: `TEAM#${teamId}`, sk: 'TEAM' });
export const teamsIndex = {
  index: 'gsi1' as const,
  pk: 'TEAMS',
  sk: (nameLower: string, teamId: string) => `${nameLower}#${teamId}`,
};
/** Team names are unique case-insensitively: a claim per lower-case name, written with the team. */
export const teamNameKey = (nameLower: string): Key => ({ pk: `TEAMNAME#${nameLower}`, sk: 'TEAMNAME' });
/** Who is on a team (every status), kept with the person's `teamId`: team deletion unassigns them from here. */
export const teamMemberKey = (teamId: string, userId: string): Key => ({
  pk: `TEAM#${teamId}`,
  sk: `MEMBER#${userId}`,
});
export const teamMembersPrefix = (teamId: string) => ({ pk: `TEAM#${teamId}`, skPrefix: 'MEMBER#' });

// ---------------------------------------------------------------- calendar and HR (issue: calendar and HR)
/**
 * Birthdays by month-day: gsi5 on the person's profile item (declared by the `Person` entity with
 * `shared/calendar/birthday-index.ts`, so every write of a profile keeps it). Sparse: no date, no entry.
 */
export const birthdaysIndex = {
  index: 'gsi5' as const,
  pk: (monthDay: string) => `BIRTHDAYS#${monthDay}`,
  sk: (userId: string) => userId,
};
// ---------------------------------------------------------------- live updates, presence, push (issue: live updates)
