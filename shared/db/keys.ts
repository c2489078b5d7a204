/**
 * Every key pattern and index use of the single table, defined once. Entities name their builders
 * after what they address. `docs/data-model.md` lists each access pattern, the key it uses and its cost.
 *
 * Index conventions (all overloaded, ALL projection; see table-definition.ts):
 * - gsi1..gsi5 carry `<index>pk` / `<index>sk` strings; each entity below says which it fills.
 *
 * Items written by grievance flows carry `anon: true` (ANON_ATTRIBUTE) so the change-feed consumer's
 * event-source filter drops them before they reach it.
 */
export const ANON_ATTRIBUTE = 'anon';

export type Key = { pk: string; sk: string };

// ---------------------------------------------------------------- accounts and sessions
/** A person's profile (also their account record). gsi1 = every member by joining time. */
export const userKey = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'PROFILE' });
export const membersIndex = { index: 'gsi1' as const, pk: 'MEMBERS', sk: (joinedAt: string, userId: string) => `${joinedAt}#${userId}` };
/** The password hash lives apart from the profile so profile reads never carry it. */
export const credentialsKey = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'CREDENTIALS' });
/** Uniqueness of e-mail addresses (stored lower-case) and sign-in lookup. */
export const emailKey = (email: string): Key => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' });
/** People by role, for "is there a super admin" and "last active super admin" checks. gsi2 on the profile. */
export const roleIndex = { index: 'gsi2' as const, pk: (role: string) => `ROLE#${role}`, sk: (userId: string) => userId };
/** People pinned to Top Contributors, in the order they were featured. gsi3 on the profile (sparse). */
export const featuredIndex = { index: 'gsi3' as const, pk: 'FEATURED', sk: (featuredAt: string, userId: string) => `${featuredAt}#${userId}` };

/** A session, addressed by the SHA-256 of its token (the token itself is never stored). gsi1 = a person's sessions. */
export const sessionKey = (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' });
export const sessionsIndex = { index: 'gsi1' as const, pk: (userId: string) => `SESSIONS#${userId}`, sk: (createdAt: string, sessionId: string) => `${createdAt}#${sessionId}` };
/** Failed sign-in attempts per e-mail address within the throttling window. */
export const signInThrottleKey = (email: string): Key => ({ pk: `SIGNIN#${email.toLowerCase()}`, sk: 'THROTTLE' });
/** A password-reset token, addressed by its hash. */
export const resetTokenKey = (tokenHash: string): Key => ({ pk: `RESET#${tokenHash}`, sk: 'RESET' });

// ---------------------------------------------------------------- notifications
/** A person's notifications, newest last in sort order (ids are time-sortable). gsi2 = their unread ones (sparse). */
export const notificationKey = (userId: string, notificationId: string): Key => ({ pk: `NOTIF#${userId}`, sk: `N#${notificationId}` });
export const notificationsPrefix = (userId: string) => ({ pk: `NOTIF#${userId}`, skPrefix: 'N#' });
export const unreadNotificationsIndex = { index: 'gsi2' as const, pk: (userId: string) => `UNREAD#${userId}`, sk: (notificationId: string) => notificationId };
/** The unread count, kept in the same transaction as every change of read state. */
export const notificationCounterKey = (userId: string): Key => ({ pk: `NOTIF#${userId}`, sk: 'COUNT' });
/** Push preference. */
export const notificationPrefsKey = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'NOTIF_PREFS' });

// ---------------------------------------------------------------- grievances (issue: grievance channel)

// ---------------------------------------------------------------- people, teams (issue: people)
/** A team. gsi1 = every team (the list is small and unpaged). */
export const teamKey = (teamId: string): Key => ({ pk: `TEAM#${teamId}`, sk: 'TEAM' });
export const teamsIndex = { index: 'gsi1' as const, pk: 'TEAMS', sk: (nameLower: string, teamId: string) => `${nameLower}#${teamId}` };

// ---------------------------------------------------------------- feed, office updates (issue: feed)

// ---------------------------------------------------------------- calendar and HR (issue: calendar and HR)

// ---------------------------------------------------------------- live updates, presence, push (issue: live updates)
