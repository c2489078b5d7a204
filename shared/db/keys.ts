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

// ---------------------------------------------------------------- feed, office updates (issue: feed)
/*
 * Post ids (and comment ids) are time-sortable, so "newest first" is descending id order everywhere.
 * A post's partition holds the post, its counters, and one item per reaction and per poll vote.
 */
export const postKey = (postId: string): Key => ({ pk: `POST#${postId}`, sk: 'POST' });
/** Counters of a post (reactions per kind, comments, shares, poll tallies), apart from the body so counter traffic never rewrites it. */
export const postStatsKey = (postId: string): Key => ({ pk: `POST#${postId}`, sk: 'STATS' });
export const postReactionKey = (postId: string, userId: string): Key => ({
  pk: `POST#${postId}`,
  sk: `REACT#${userId}`,
});
export const postVoteKey = (postId: string, userId: string): Key => ({ pk: `POST#${postId}`, sk: `VOTE#${userId}` });
export const postVotesPrefix = (postId: string) => ({ pk: `POST#${postId}`, skPrefix: 'VOTE#' });
/** The claim and progress of telling a closed poll's voters (written with the closing, sent by the feed fan-out). */
export const pollClosedNoticeKey = (postId: string): Key => ({ pk: `POST#${postId}`, sk: 'POLL_CLOSED' });
/** The progress of telling everybody of an announcement (claimed and sent by the feed fan-out). */
export const announcementNoticeKey = (postId: string): Key => ({ pk: `POST#${postId}`, sk: 'ANNOUNCEMENT' });
export const postReactionsPrefix = (postId: string) => ({ pk: `POST#${postId}`, skPrefix: 'REACT#' });
/**
 * Post lists: one partition per list (the whole feed, an author, a tag, a type, a recognition
 * recipient, a person's bookmarks), one entry per post with sk = post id. The entries of a post are
 * derived from it and written, moved and removed in the transactions that change it, so a list page is
 * one Query; hidden and deleted posts have no entries (bookmarks excepted: they belong to the reader).
 */
export const postListKey = (list: string, postId: string): Key => ({ pk: `POSTS#${list}`, sk: postId });
export const postListPk = (list: string) => `POSTS#${list}`;
export const postLists = {
  all: 'ALL',
  author: (userId: string) => `AUTHOR#${userId}`,
  tag: (tag: string) => `TAG#${tag}`,
  type: (type: 'announcement' | 'recognition' | 'poll') => `TYPE#${type}`,
  recognized: (userId: string) => `RECOGNIZED#${userId}`,
  bookmarks: (userId: string) => `BOOKMARKS#${userId}`,
};
/** Who bookmarked a post (gsi1 on bookmark entries): the clean-up after a post is deleted. */
export const bookmarksOfPostIndex = {
  index: 'gsi1' as const,
  pk: (postId: string) => `BOOKMARKED#${postId}`,
  sk: (userId: string) => userId,
};
/** Polls whose closing is still to be announced, by closing time (gsi1 on the post item, sparse). */
export const closingPollsIndex = {
  index: 'gsi1' as const,
  pk: 'POLLS_CLOSING',
  sk: (closesAtUtc: string, postId: string) => `${closesAtUtc}#${postId}`,
};

/** A comment or reply. gsi1 = a post's top-level comments, or a thread's replies, oldest first by id. */
export const commentKey = (commentId: string): Key => ({ pk: `COMMENT#${commentId}`, sk: 'COMMENT' });
/** The claim and progress of telling a reply's thread (written with the reply, sent by the feed fan-out). */
export const replyNoticeKey = (commentId: string): Key => ({ pk: `COMMENT#${commentId}`, sk: 'REPLY_NOTICE' });
export const commentVoteKey = (commentId: string, userId: string): Key => ({
  pk: `COMMENT#${commentId}`,
  sk: `VOTE#${userId}`,
});
export const topCommentsIndex = {
  index: 'gsi1' as const,
  pk: (postId: string) => `COMMENTS#${postId}`,
  sk: (commentId: string) => commentId,
};
export const repliesIndex = {
  index: 'gsi1' as const,
  pk: (topCommentId: string) => `REPLIES#${topCommentId}`,
  sk: (commentId: string) => commentId,
};

/** Who a person follows (bounded by the company's size). */
export const followKey = (userId: string, followingId: string): Key => ({ pk: `FOLLOWS#${userId}`, sk: followingId });
export const followsPrefix = (userId: string) => ({ pk: `FOLLOWS#${userId}` });

/** An uploaded post file (owner, kind, size, renditions); the bytes are in the bucket under `posts/<uploadId>/`. */
export const postUploadKey = (uploadId: string): Key => ({ pk: `UPLOAD#${uploadId}`, sk: 'UPLOAD' });
/** What one person uploaded for posts on one UTC day (`YYYY-MM-DD`): the daily upload quota's counters. */
export const uploadQuotaKey = (userId: string, day: string): Key => ({
  pk: `UPLOADQUOTA#${userId}#${day}`,
  sk: 'QUOTA',
});

/**
 * Leaderboard and contributors. A person's all-time feed score sits with their account; gsi6 orders
 * everybody by score and gsi7 by posts (numeric sort keys moved with `ADD`). Each day has one partition
 * of per-person score items, so a period reads only the people active in it.
 */
export const feedScoreKey = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'FEED_SCORE' });
export const leaderboardIndex = { index: 'gsi6' as const, pk: 'LEADERBOARD' };
export const contributorsIndex = { index: 'gsi7' as const, pk: 'CONTRIBUTORS' };
export const feedScoreDayKey = (day: string, userId: string): Key => ({ pk: `FEED_SCORES#${day}`, sk: userId });
export const feedScoreDayPk = (day: string) => `FEED_SCORES#${day}`;

/**
 * Office updates: a post's website record (status, review, publishedAt) lives in the post's partition.
 * gsi1 = the admin queue per status (newest post first); gsi2 = the public list by publishedAt (present
 * only while approved and not hidden). Counts per status move in the same transactions.
 */
export const websiteEntryKey = (postId: string): Key => ({ pk: `POST#${postId}`, sk: 'WEBSITE' });
export const websiteQueueIndex = {
  index: 'gsi1' as const,
  pk: (status: string) => `WEBSITE#${status}`,
  sk: (postId: string) => postId,
};
export const officeUpdatesIndex = {
  index: 'gsi2' as const,
  pk: 'OFFICE_UPDATES',
  sk: (publishedAt: string, postId: string) => `${publishedAt}#${postId}`,
};
export const websiteCountsKey = (): Key => ({ pk: 'WEBSITE', sk: 'COUNTS' });

// ---------------------------------------------------------------- calendar and HR (issue: calendar and HR)
/*
 * Times in sort keys are UTC ISO strings (`toISOString`, fixed width), so string order is time order;
 * the items keep the offset each time was given in for the answers.
 */
/** A company event. gsi4 = every event by start; gsi5 = events longer than a day by effective end (sparse). */
export const companyEventKey = (eventId: string): Key => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' });
export const eventsByStartIndex = {
  index: 'gsi4' as const,
  pk: 'EVENTS',
  sk: (startUtc: string, eventId: string) => `${startUtc}#${eventId}`,
};
export const longEventsByEndIndex = {
  index: 'gsi5' as const,
  pk: 'EVENTS_LONG',
  sk: (endUtc: string, eventId: string) => `${endUtc}#${eventId}`,
};

/**
 * A meeting and its seats (one per internal participant). A person's calendar is gsi1 (by start) and
 * gsi2 (by end) under `MEETINGS#<userId>`: the meeting item carries the organizer's entries, each seat
 * its participant's. gsi3/gsi4 = every meeting by start / by end (the super admin's view).
 */
export const meetingKey = (meetingId: string): Key => ({ pk: `MEETING#${meetingId}`, sk: 'MEETING' });
/** The external recipients one person's meeting e-mail reached on one UTC day (`sent`, moved with the meeting write). */
export const meetingMailQuotaKey = (userId: string, day: string): Key => ({
  pk: `MEETING_MAIL#${userId}`,
  sk: `DAY#${day}`,
});
export const meetingSeatKey = (meetingId: string, userId: string): Key => ({
  pk: `MEETING#${meetingId}`,
  sk: `SEAT#${userId}`,
});
export const meetingSeatsPrefix = (meetingId: string) => ({ pk: `MEETING#${meetingId}`, skPrefix: 'SEAT#' });
export const calendarByStartIndex = {
  index: 'gsi1' as const,
  pk: (userId: string) => `MEETINGS#${userId}`,
  sk: (startUtc: string, meetingId: string) => `${startUtc}#${meetingId}`,
};
export const calendarByEndIndex = {
  index: 'gsi2' as const,
  pk: (userId: string) => `MEETINGS#${userId}`,
  sk: (endUtc: string, meetingId: string) => `${endUtc}#${meetingId}`,
};
export const allMeetingsByStartIndex = {
  index: 'gsi3' as const,
  pk: 'MEETINGS_ALL',
  sk: (startUtc: string, meetingId: string) => `${startUtc}#${meetingId}`,
};
export const allMeetingsByEndIndex = {
  index: 'gsi4' as const,
  pk: 'MEETINGS_ALL',
  sk: (endUtc: string, meetingId: string) => `${endUtc}#${meetingId}`,
};

/**
 * Birthdays by month-day: gsi5 on the person's profile item (declared by the `Person` entity with
 * `shared/calendar/birthday-index.ts`, so every write of a profile keeps it). Sparse: no date, no entry.
 */
export const birthdaysIndex = {
  index: 'gsi5' as const,
  pk: (monthDay: string) => `BIRTHDAYS#${monthDay}`,
  sk: (userId: string) => userId,
};
/** A birthday wish (id derived from recipient, year and author: one per author per birthday). gsi1 = a person's wishes of a year. */
export const birthdayWishKey = (wishId: string): Key => ({ pk: `WISH#${wishId}`, sk: 'WISH' });
export const wishesReceivedIndex = {
  index: 'gsi1' as const,
  pk: (recipientId: string, year: string) => `WISHES#${recipientId}#${year}`,
  sk: (createdAt: string, wishId: string) => `${createdAt}#${wishId}`,
};
/** Wishes a person received in a year (`wishCount`), moved in the transaction of each first wish. */
export const wishCounterKey = (recipientId: string, year: string): Key => ({
  pk: `USER#${recipientId}`,
  sk: `WISHES#${year}`,
});
/** The claim that a person's birthday was announced on a date (never twice); the day's claims share a partition. */
export const birthdayAnnouncementKey = (date: string, userId: string): Key => ({
  pk: `BIRTHDAY_ANNOUNCEMENTS#${date}`,
  sk: userId,
});

/** One attendance record per person per company day. gsi1 = a day's records (who checked in). */
export const attendanceKey = (userId: string, date: string): Key => ({ pk: `ATTENDANCE#${userId}`, sk: `DAY#${date}` });
export const attendanceRange = (userId: string, from: string, to: string) => ({
  pk: `ATTENDANCE#${userId}`,
  skBetween: [`DAY#${from}`, `DAY#${to}`] as [string, string],
});
export const attendanceDayIndex = {
  index: 'gsi1' as const,
  pk: (date: string) => `ATTENDANCE_DAY#${date}`,
  sk: (userId: string) => userId,
};
/** `present` of a company day, moved in the transaction of every check-in and check-out. */
export const presentCounterKey = (date: string): Key => ({ pk: `ATTENDANCE_DAY#${date}`, sk: 'COUNT' });

/**
 * A leave request (time-sortable id, so id order is creation order). gsi1 = by requester, gsi2 = by
 * selected manager, gsi3 = everybody's; gsi4 / gsi5 = the pending ones by selected manager / all (sparse,
 * removed when processed).
 */
export const leaveRequestKey = (requestId: string): Key => ({ pk: `LEAVE#${requestId}`, sk: 'LEAVE' });
export const leaveByRequesterIndex = {
  index: 'gsi1' as const,
  pk: (employeeId: string) => `LEAVE_BY#${employeeId}`,
  sk: (requestId: string) => requestId,
};
export const leaveByApproverIndex = {
  index: 'gsi2' as const,
  pk: (managerId: string) => `LEAVE_TO#${managerId}`,
  sk: (requestId: string) => requestId,
};
export const leaveAllIndex = { index: 'gsi3' as const, pk: 'LEAVE_ALL', sk: (requestId: string) => requestId };
export const pendingLeaveByApproverIndex = {
  index: 'gsi4' as const,
  pk: (managerId: string) => `LEAVE_PENDING#${managerId}`,
  sk: (requestId: string) => requestId,
};
export const pendingLeaveAllIndex = {
  index: 'gsi5' as const,
  pk: 'LEAVE_PENDING_ALL',
  sk: (requestId: string) => requestId,
};
/** Up to which request id a person has seen the requests routed to them (`POST /leave/requests/seen`). */
export const leaveSeenKey = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'LEAVE_SEEN' });

// ---------------------------------------------------------------- live updates, presence, push (issue: live updates)
/**
 * The change feed's event log, all in the partition `LIVE` (a fixed key, so the change-feed
 * consumer's event-source filter can drop the log's own writes by `Keys.pk`). The head holds the
 * current epoch and the last sequence number handed out (`ADD`); events sort by epoch, then by a
 * zero-padded seq, so "after seq N" is one range Query.
 *
 * Stream connections do not poll that head: the consumer copies it, with the newest events inline,
 * to K replica items (`LIVE_REPLICAS`, at most LIVE_MAX_REPLICAS), each its own partition
 * (`LIVE#<n>`), once per batch; a connection reads a different replica at each poll, so the read
 * load of N connections is spread over K keys (docs/data-model.md, "Live updates"). Each processed stream record leaves a
 * marker (`REC#<eventID>`) so a retried batch appends nothing twice.
 */
export const LIVE_PARTITION = 'LIVE';
export const LIVE_MAX_REPLICAS = 64;
export const liveHeadKey = (): Key => ({ pk: LIVE_PARTITION, sk: 'HEAD' });
export const liveReplicaKey = (replica: number): Key => ({ pk: `${LIVE_PARTITION}#${replica}`, sk: 'HEAD' });
/** Every partition key the event log may use, whatever K (the change-feed filter drops writes to any). */
export const livePartitions = (): string[] => [
  LIVE_PARTITION,
  ...Array.from({ length: LIVE_MAX_REPLICAS }, (_, r) => liveReplicaKey(r).pk),
];
/** The seqs one stream record's events got (idempotent append). */
export const liveRecordKey = (eventId: string): Key => ({ pk: LIVE_PARTITION, sk: `REC#${eventId}` });
const SEQ_WIDTH = 15;
export const liveEventSk = (epoch: string, seq: number) => `EVENT#${epoch}#${String(seq).padStart(SEQ_WIDTH, '0')}`;
export const liveEventKey = (epoch: string, seq: number): Key => ({ pk: LIVE_PARTITION, sk: liveEventSk(epoch, seq) });
/** Events of an epoch with seq in [from, to] (inclusive). */
export const liveEventRange = (epoch: string, from: number, to = 10 ** SEQ_WIDTH - 1) => ({
  pk: LIVE_PARTITION,
  skBetween: [liveEventSk(epoch, from), liveEventSk(epoch, to)] as [string, string],
});
/**
 * A person's open streams, one lease per open connection (see `shared/live/stream-leases.ts`), in a
 * partition of their own so that the stream function may write nothing of the person's but these
 * (`dynamodb:LeadingKeys`). Lease items once kept under `USER#<id>` with the same sort key are never
 * read again and expire by their TTL.
 */
export const liveStreamLeasesKey = (userId: string): Key => ({ pk: `STREAMS#${userId}`, sk: 'STREAM_LEASES' });
export const STREAM_LEASES_PREFIX = liveStreamLeasesKey('').pk;

/**
 * A person's presence (derived state and the times it changes next), read in batch with profiles.
 * gsi6 = people whose presence is due to change (numeric sk = when, epoch ms; sparse: removed once offline).
 */
export const presenceKey = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'PRESENCE' });
export const presenceDueIndex = { index: 'gsi6' as const, pk: 'PRESENCE_DUE', sk: (dueAtMs: number) => dueAtMs };
/** One client connection's heartbeats (bounded per person by their open tabs and devices; TTL cleans up). */
export const presenceConnectionKey = (userId: string, connectionId: string): Key => ({
  pk: `PRESENCE#${userId}`,
  sk: `CONN#${connectionId}`,
});
export const presenceConnectionsPrefix = (userId: string) => ({ pk: `PRESENCE#${userId}`, skPrefix: 'CONN#' });

// ---------------------------------------------------------------- idempotency (the `Idempotency-Key` header)
/**
 * The first outcome of a creating request sent with an `Idempotency-Key` (shared/http/idempotency.ts):
 * one item per (caller, key), addressed by an HMAC of both (`idempotencyKeyTag`), so records spread
 * over partitions, name nobody and cannot be grouped by person. Expires through `ttl` after 24 hours.
 */
export const idempotencyRecordKey = (keyTag: string): Key => ({ pk: `IDEMPOTENCY#${keyTag}`, sk: 'IDEMPOTENCY' });

// ---------------------------------------------------------------- migrations
/** The state of one migration of stored items (shared/migrations/): one partition, a few items. */
export const migrationKey = (migrationId: string): Key => ({ pk: 'MIGRATION', sk: migrationId });
