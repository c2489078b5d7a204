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

// ---------------------------------------------------------------- notifications
/** A person's notifications, newest last in sort order (ids are time-sortable). gsi2 = their unread ones (sparse). */
export const notificationKey = (userId: string, notificationId: string): Key => ({
  pk: `NOTIF#${userId}`,
  sk: `N#${notificationId}`,
});
export const notificationsPrefix = (userId: string) => ({ pk: `NOTIF#${userId}`, skPrefix: 'N#' });
export const unreadNotificationsIndex = {
  index: 'gsi2' as const,
  pk: (userId: string) => `UNREAD#${userId}`,
  sk: (notificationId: string) => notificationId,
};
/** The unread count, kept in the same transaction as every change of read state. */
export const notificationCounterKey = (userId: string): Key => ({ pk: `NOTIF#${userId}`, sk: 'COUNT' });

// ---------------------------------------------------------------- grievances (issue: grievance channel)
/*
 * Anonymity at rest: no grievance key or attribute holds a user id. Who raised or wrote something is a
 * keyed hash (HMAC with GRIEVANCE_SECRET) of the person and that one grievance or reply ("tag"), so two
 * things one person wrote cannot be linked; per-person items are keyed by such tags as well.
 */
/**
 * A grievance; its status changes (`STATUS#<move number>`) and replies (`REPLY#<time-sortable id>`)
 * share its partition.
 */
export const grievanceKey = (grievanceId: string): Key => ({ pk: `GRIEVANCE#${grievanceId}`, sk: 'GRIEVANCE' });
export const grievanceReplyKey = (grievanceId: string, replyId: string): Key => ({
  pk: `GRIEVANCE#${grievanceId}`,
  sk: `REPLY#${replyId}`,
});
export const grievanceRepliesPrefix = (grievanceId: string) => ({ pk: `GRIEVANCE#${grievanceId}`, skPrefix: 'REPLY#' });
/** Numbered by the grievance's move counter, so the history's order is the order the moves committed in. */
export const grievanceStatusChangeKey = (grievanceId: string, move: number): Key => ({
  pk: `GRIEVANCE#${grievanceId}`,
  sk: `STATUS#${String(move).padStart(8, '0')}`,
});
/** The move number of a history entry's sort key (entries written before they stored `move`). */
export const grievanceStatusChangeMove = (sk: string) => Number(sk.slice('STATUS#'.length));
export const grievanceStatusChangesPrefix = (grievanceId: string) => ({
  pk: `GRIEVANCE#${grievanceId}`,
  skPrefix: 'STATUS#',
});
/**
 * The board and the handler queue: one index per filter combination, so every filtered page (newest or
 * oldest first) is a single Query. gsi1 = all, gsi2 = by status, gsi3 = by category, gsi4 = by both;
 * sk `<createdAt>#<id>` on all four. A status move rewrites gsi2pk and gsi4pk.
 */
export function grievanceBoardIndex(filter: { status?: string; category?: string }): {
  index: 'gsi1' | 'gsi2' | 'gsi3' | 'gsi4';
  pk: string;
} {
  const { status, category } = filter;
  if (status && category) return { index: 'gsi4', pk: `GRIEVANCES#S#${status}#C#${category}` };
  if (status) return { index: 'gsi2', pk: `GRIEVANCES#S#${status}` };
  if (category) return { index: 'gsi3', pk: `GRIEVANCES#C#${category}` };
  return { index: 'gsi1', pk: 'GRIEVANCES' };
}
/** Board totals, one attribute per filter combination, moved in the transaction of every raise and move. */
export const grievanceTotalsKey = (): Key => ({ pk: 'GRIEVANCE_TOTALS', sk: 'TOTALS' });
/** A person's read marker for one grievance, addressed by tag(person, grievance) alone: it names neither. */
export const grievanceReadKey = (readTag: string): Key => ({ pk: `GRIEVANCE_READ#${readTag}`, sk: 'READ' });
/** How many grievances a person raised or marked read (unread = all − this), addressed by tag(person). */
export const grievanceSeenKey = (personTag: string): Key => ({ pk: `GRIEVANCE_SEEN#${personTag}`, sk: 'COUNT' });
/**
 * Grievance notifications waiting for their delivery batch, so that no notification's time or order
 * matches the event that caused it (docs/data-model.md, Grievances). A fixed number of shards (a
 * notice picks one at random) keeps the queue off a single partition; the sort key starts with the
 * event's time, so a batch reads exactly the notices that are due: one Query per shard.
 */
export const GRIEVANCE_NOTICE_SHARDS = 4;
export const grievanceNoticeQueue = (shard: number) => `GRIEVANCE_NOTICES#${shard}`;
export const grievanceNoticeKey = (shard: number, releaseAt: string, noticeId: string): Key => ({
  pk: grievanceNoticeQueue(shard),
  sk: `${releaseAt}#${noticeId}`,
});
/**
 * The shard and time of a queued notice's key (notices queued before they stored them). The time is
 * the release time; a notice of 0.2.0 and earlier was keyed by its event's time, which its batch
 * treated the same way (due a fixed delay after it).
 */
export const grievanceNoticeKeyParts = (key: Key, noticeId: string) => ({
  shard: Number(key.pk.slice(key.pk.lastIndexOf('#') + 1)),
  releaseAt: key.sk.slice(0, key.sk.length - noticeId.length - 1),
});
/**
 * Where the delivery batch has read the queues up to (a time only: never a notice's id, which
 * would tie the batch's writes to the event that queued it).
 */
export const grievanceNoticeCursorKey = (): Key => ({ pk: 'GRIEVANCE_NOTICES_CURSOR', sk: 'CURSOR' });
/** Every item of one grievance's partition (the grievance, its history, replies and erasure references). */
export const grievancePartition = (grievanceId: string) => ({ pk: `GRIEVANCE#${grievanceId}` });
/**
 * What erasing a grievance must find that is not keyed by it (docs/data-model.md, Grievances:
 * retention): a person's read marker and every notification about the grievance. One reference each in
 * the grievance's partition, written with the marker or notification, holding the person (and the
 * notification) sealed, under a random id and with no time.
 */
export const grievanceReaderRefKey = (grievanceId: string, refId: string): Key => ({
  pk: `GRIEVANCE#${grievanceId}`,
  sk: `READER#${refId}`,
});
export const grievanceNotificationRefKey = (grievanceId: string, refId: string): Key => ({
  pk: `GRIEVANCE#${grievanceId}`,
  sk: `NOTIFIED#${refId}`,
});
/**
 * The handling indexes, derived from each grievance's state and rewritten in the transaction of every
 * change to it (shared/grievances/handling-index.ts): its next deadline (the deadlines list), its next
 * reminder (the reminder sweep) and its finishing time (the retention sweep). Each is sharded by the
 * grievance id over a fixed number of partitions, so no partition takes every write; the sort key
 * starts with the time, so a sweep reads exactly what is due (one Query per shard).
 */
export const GRIEVANCE_INDEX_SHARDS = 4;
/** The three indexes: `GRIEVANCE_DEADLINES#<shard>`, `GRIEVANCE_REMINDERS#<shard>`, `GRIEVANCE_FINISHED#<shard>`. */
export type GrievanceHandlingIndex = 'DEADLINES' | 'REMINDERS' | 'FINISHED';
export const grievanceHandlingPartition = (index: GrievanceHandlingIndex, shard: number) =>
  `GRIEVANCE_${index}#${shard}`;
/** The shard of a grievance's entries: a fixed function of its id, so every entry of one grievance is found again. */
export const grievanceHandlingShard = (grievanceId: string) =>
  [...grievanceId].reduce((sum, c) => sum + c.charCodeAt(0), 0) % GRIEVANCE_INDEX_SHARDS;
export const grievanceHandlingKey = (
  index: GrievanceHandlingIndex,
  shard: number,
  at: string,
  grievanceId: string,
): Key => ({
  pk: grievanceHandlingPartition(index, shard),
  sk: `${at}#${grievanceId}`,
});
/**
 * Handler statistics, one counter item per UTC day (`YYYY-MM-DD`): a period is one BatchGet of its
 * days. Moved in the transactions of the raises, moves, replies and sweeps they count.
 */
export const grievanceStatsKey = (day: string): Key => ({ pk: `GRIEVANCE_STATS#${day}`, sk: 'STATS' });
/** One audit item per retention sweep run that erased something (how many, when), by UTC month. */
export const grievanceErasureAuditKey = (runAt: string): Key => ({
  pk: `GRIEVANCE_ERASURES#${runAt.slice(0, 7)}`,
  sk: runAt,
});
export const grievanceErasureAuditPartition = (month: string) => `GRIEVANCE_ERASURES#${month}`;

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
/** "Every notification read" marker: one write per mark-all, so the feed emits one `notification.read` (null). */
export const notificationsReadAllKey = (userId: string): Key => ({ pk: `NOTIF#${userId}`, sk: 'READ_ALL' });
