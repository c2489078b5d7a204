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
/** "Every notification read" marker: one write per mark-all, so the feed emits one `notification.read` (null). */
export const notificationsReadAllKey = (userId: string): Key => ({ pk: `NOTIF#${userId}`, sk: 'READ_ALL' });

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
