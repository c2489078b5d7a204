import { BirthdayAnnouncement, BirthdayDay, EventAudience, EventReader } from '../calendar/entities.ts';
import { PersonErasure } from '../data-rights/entities.ts';
import { DocumentChange, DocumentLease } from '../documents/entities.ts';
import { companyFanOutFilters } from '../feed/company-fan-out.ts';
import {
  AnnouncementNotice,
  FollowedPost,
  LeaderboardTop,
  MustRead,
  MustReadAck,
  MustReadReminder,
  PostAudience,
  PostReader,
  ScheduledPost,
} from '../feed/entities.ts';
import { fanOutFilters } from '../feed/fan-out.ts';
import { followingListFilters } from '../feed/following-lists.ts';
import { leaderboardFoldFilters } from '../feed/leaderboard.ts';
import { LiveEvent, LiveHead, LiveRecord, LiveReplica } from '../live/entities.ts';
import { changeFeedFilters } from '../live/stream-filters.ts';
import { reportCleanupFilters } from '../moderation/cleanup.ts';
import { ContentReport, ReportFiling } from '../moderation/entities.ts';
import { User } from '../people/entities.ts';
import { teamDeletionFilters } from '../people/team-deletion.ts';
import { Presence } from '../presence/entities.ts';
import { reachMarkFilters } from '../reach/activity.ts';
import { PostSeen, ReachDay, ReachSlice, ReachTotal } from '../reach/entities.ts';
import { reachTargetFilters } from '../reach/targets.ts';
import { Survey, SurveyMember } from '../surveys/entities.ts';
import { surveyFanOutFilters } from '../surveys/fan-out.ts';
import { wholeListFilters } from '../whole-lists/consumer.ts';
import type { RouteAccess } from './route-def.ts';
import { CHANGES_PEOPLE, FEED_WRITES, NOTIFIES, PUSHES } from './writes.ts';

/**
 * The functions that are not HTTP routes: consumers of the table's DynamoDB stream and scheduled
 * sweeps. Like the route table, this one list drives the CDK stack (event source mappings, EventBridge
 * schedules) and the local runtime (its stream poller and timers).
 */
/** What a background function may touch when deployed (like a route's `access`), and its size. */
export interface BackgroundFunctionSettings {
  /** Default `{ table: 'write' }`: every background function records what it did. */
  access?: RouteAccess;
  /** Seconds (default 60). */
  timeout?: number;
  /** MB (default 512). */
  memory?: number;
}

export interface StreamConsumer extends BackgroundFunctionSettings {
  name: string;
  /** Project-relative handler module exporting `handler(event: DynamoDBStreamEvent)`. */
  handler: string;
  /**
   * Event-source filter patterns (Lambda filter criteria, as JSON objects); a record reaches the
   * consumer when it matches any of them. The local poller applies the same patterns.
   */
  filters: Record<string, unknown>[];
  batchSize?: number;
}

export interface Schedule extends BackgroundFunctionSettings {
  name: string;
  /** Project-relative handler module exporting `handler(event: ScheduledEvent)`. */
  handler: string;
  /** Every this many seconds (EventBridge `rate(...)`, at least 60). */
  everySeconds?: number;
  /**
   * The local runtime's period instead of `everySeconds`, for schedules whose delay users wait for:
   * EventBridge rates start at a minute, the local runtime (and the conformance suite) need seconds.
   * Listed in docs/deployment.md (local vs deployed).
   */
  localEverySeconds?: number;
  /** Or a daily time in the company's timezone, `HH:MM` (an EventBridge Scheduler cron with a timezone). */
  dailyAt?: string;
}

/**
 * What folding the whole lists' documents touches: the change items it folds and deletes, the lease, the
 * tombstones; the documents themselves. The consumer and the refresh schedule do the same work
 * (shared/documents/whole-list.ts), so they hold the same grants, declared once.
 */
const wholeListDocumentsAccess: RouteAccess = {
  table: 'write',
  writes: [DocumentChange, DocumentLease],
  bucket: [{ prefix: 'documents/', actions: ['read', 'write'] }],
};

export const streamConsumers: StreamConsumer[] = [
  // The change feed: the only reader of the stream; item changes → live-update events in the event log.
  {
    name: 'change-feed',
    handler: 'functions/stream/change-feed.ts',
    filters: changeFeedFilters,
    batchSize: 100,
    // It writes the event log only (its head, replicas, events and record markers).
    access: { table: 'write', writes: [LiveHead, LiveReplica, LiveEvent, LiveRecord] },
  },
  // The feed's deferred personal work: the notices of replies and closed polls, renditions of
  // presigned images, clean-up after deletions. Never company-wide work (company-fan-out below), so a
  // reply's notification never waits behind an announcement to everybody.
  {
    name: 'feed-fan-out',
    handler: 'functions/feed/fan-out.ts',
    // A deleted post's or comment's report goes with it (shared/moderation/cleanup.ts).
    filters: [...fanOutFilters, ...reportCleanupFilters],
    batchSize: 10,
    // Notices notify (push); renditions read the upload and write the webp files under posts/.
    access: {
      table: 'write',
      writes: [...FEED_WRITES, ContentReport, ReportFiling],
      bucket: [{ prefix: 'posts/', actions: ['read', 'write'] }],
      sns: true,
    },
    timeout: 120,
    memory: 1024,
  },
  // Each follower's list of the posts of the people they follow (GET /posts?following=true).
  {
    name: 'following-lists',
    handler: 'functions/feed/following-lists.ts',
    filters: followingListFilters,
    batchSize: 20,
    access: { table: 'write', writes: [FollowedPost] },
    timeout: 300,
  },
  // Company-wide fan-outs, in a function of their own (own event source mapping, own concurrency):
  // announcements to everybody, and the day's birthday notification (claimed by GET /birthdays/today
  // or the sweep), each page by page, resuming from its recorded progress (shared/feed/company-fan-out.ts).
  {
    name: 'company-fan-out',
    handler: 'functions/feed/company-fan-out.ts',
    filters: companyFanOutFilters,
    batchSize: 10,
    // The notices' and the birthday day's progress, the notifications (no push: decisions §5 pushes no
    // announcement or birthday; delivery is still called and may remove unfit registrations).
    access: {
      table: 'write',
      // Must-reads: their state and each person's part (docs/must-read.md).
      // Targeted posts: their frozen audiences' progress and readers (docs/audiences.md).
      writes: [
        AnnouncementNotice,
        BirthdayAnnouncement,
        BirthdayDay,
        MustRead,
        MustReadAck,
        PostAudience,
        PostReader,
        EventAudience,
        EventReader,
        ...NOTIFIES,
        ...PUSHES,
      ],
      sns: true,
      // A targeted post's audience is evaluated over the roster document (docs/audiences.md).
      bucket: [{ prefix: 'documents/', actions: ['read'] }],
    },
    // A pass over 50,000 people is about 1,000 transactions; a timeout resumes from the recorded page.
    timeout: 900,
  },
  // A deleted team's people unassigned one by one, then the team removed (shared/people/team-deletion.ts).
  {
    name: 'survey-fan-out',
    handler: 'functions/surveys/fan-out-survey-run.ts',
    filters: surveyFanOutFilters,
    batchSize: 10,
    access: {
      table: 'write',
      writes: [Survey, SurveyMember, ...NOTIFIES, ...PUSHES],
      sns: true,
      // The roster document, over which the audience is evaluated.
      bucket: [{ prefix: 'documents/', actions: ['read'] }],
    },
    timeout: 900,
    memory: 1024,
  },
  {
    name: 'team-deletion',
    handler: 'functions/teams/clear-deleted-team.ts',
    filters: teamDeletionFilters,
    batchSize: 10,
    // Each person's change (profile, directory row, facets, counters, membership) and the team's progress.
    access: { table: 'write', writes: CHANGES_PEOPLE },
    timeout: 300,
  },
  // The whole lists' documents (roster, a day's attendance): pending changes folded into the bucket
  // objects, a removed profile's row dropped (shared/documents/whole-list.ts).
  {
    name: 'whole-lists',
    handler: 'functions/stream/whole-lists.ts',
    filters: wholeListFilters,
    batchSize: 100,
    access: wholeListDocumentsAccess,
    timeout: 300,
    memory: 1024,
  },
  // The leaderboard's week and month top lists: each score change (a day item written) folded in, so a
  // request reads a list and a few changes whatever the activity (shared/feed/leaderboard.ts); a list
  // missing is made first (tomorrow's rolled from today's).
  {
    name: 'leaderboard-fold',
    handler: 'functions/stream/leaderboard-fold.ts',
    filters: leaderboardFoldFilters,
    batchSize: 100,
    access: { table: 'write', writes: [LeaderboardTop] },
  },
  // Reach (docs/reach.md): a post's audience at publish counted, in all and per slice (the roster
  // document read once a batch); a deleted post's roll-ups and marks removed.
  {
    name: 'reach-targets',
    handler: 'functions/reach/reach-targets.ts',
    filters: reachTargetFilters,
    batchSize: 10,
    access: {
      table: 'write',
      writes: [PostSeen, ReachTotal, ReachDay, ReachSlice],
      bucket: [{ prefix: 'documents/', actions: ['read'] }],
    },
    timeout: 300,
    memory: 1024,
  },
  // Reach: a person's first reaction, comment and acknowledgement of a post, each counted once.
  {
    name: 'reach-marks',
    handler: 'functions/reach/reach-marks.ts',
    filters: reachMarkFilters,
    batchSize: 100,
    access: { table: 'write', writes: [PostSeen, ReachTotal, ReachDay, ReachSlice] },
  },
];

export const schedules: Schedule[] = [
  // Builds the whole lists' documents again from the table: a document never built (a new
  // deployment) or drifted (shared/whole-lists/consumer.ts).
  {
    name: 'whole-lists-refresh',
    handler: 'functions/schedules/refresh-whole-lists.ts',
    everySeconds: 1800,
    localEverySeconds: 120,
    access: wholeListDocumentsAccess,
    timeout: 900,
    memory: 1024,
  },
  // The leaderboard's week and month top lists (shared/feed/leaderboard.ts): a missing one made
  // (tomorrow's rolled from today's), a sweep of the day partitions started where a fold marked a list
  // stale or its last sweep is 6 hours old, and at most 100 sweep steps a run (each recorded, resumed by
  // the next run): 4 list reads a run, then per step 1 R + 7 / 30 Query pages of ≤ 100 items.
  {
    name: 'leaderboard-top',
    handler: 'functions/schedules/build-leaderboard-top.ts',
    everySeconds: 60,
    localEverySeconds: 5,
    access: { table: 'write', writes: [LeaderboardTop] },
    timeout: 300,
    memory: 1024,
  },
  // Records presence timeouts (active → away → offline) so presence.updated fires for them too.
  {
    name: 'presence-sweep',
    handler: 'functions/schedules/presence-sweep.ts',
    everySeconds: 60,
    access: { table: 'write', writes: [Presence] },
  },
  // Claims today's birthday announcements unless a GET /birthdays/today did first, and takes over
  // stalled ones (shared/calendar/birthdays/announce.ts); the company fan-out sends them.
  {
    name: 'birthday-sweep',
    handler: 'functions/schedules/birthday-sweep.ts',
    dailyAt: '00:05',
    // It claims (and takes over a stalled day's pass); the company fan-out notifies.
    access: { table: 'write', writes: [BirthdayAnnouncement, BirthdayDay] },
    timeout: 300,
  },
  // Announces polls closed by time (poll_closed to author and voters; post.poll.updated).
  {
    name: 'poll-closing-sweep',
    handler: 'functions/feed/announce-closed-polls.ts',
    everySeconds: 60,
    access: { table: 'write', writes: FEED_WRITES, sns: true }, // poll_closed notifications (push)
  },
  // Publishes scheduled posts at their moment, each as a post written then (shared/feed/scheduled-posts.ts).
  {
    name: 'scheduled-posts',
    handler: 'functions/feed/publish-scheduled-posts.ts',
    everySeconds: 60,
    localEverySeconds: 2,
    // What creating a post writes (its notifications pushed), and the schedule it ends; a targeted
    // post's audience checked over the roster (docs/audiences.md).
    access: {
      table: 'write',
      writes: [...FEED_WRITES, ScheduledPost, ...NOTIFIES],
      sns: true,
      bucket: [{ prefix: 'documents/', actions: ['read'] }],
    },
    timeout: 300,
  },
  // Delivers grievance notifications in batches apart from the events that caused them (shared/grievances/notice-delivery.ts).
  {
    name: 'grievance-notice-delivery',
    handler: 'functions/schedules/deliver-grievance-notices.ts',
    everySeconds: 60,
    localEverySeconds: 1,
    access: { table: 'write', sns: true }, // mentions are pushed
  },
  // Reminds the super admins of grievance deadlines due soon or missed (shared/grievances/reminders.ts).
  {
    name: 'grievance-reminders',
    handler: 'functions/schedules/send-grievance-reminders.ts',
    everySeconds: 900,
    access: { table: 'write', sns: true, ses: true }, // bell notifications (push) and e-mail
  },
  // Reminds the people who still owe a must-read announcement before its dueAt, page by page
  // (shared/feed/must-read-reminders.ts; docs/must-read.md).
  {
    name: 'survey-schedule',
    handler: 'functions/schedules/run-survey-schedule.ts',
    everySeconds: 60,
    localEverySeconds: 5,
    access: { table: 'write', writes: [Survey, ...NOTIFIES, ...PUSHES], sns: true },
    timeout: 900,
  },
  {
    name: 'must-read-reminders',
    handler: 'functions/schedules/send-must-read-reminders.ts',
    everySeconds: 300,
    localEverySeconds: 5,
    // The reminder's progress, the notifications (push) and the e-mail.
    access: { table: 'write', writes: [MustReadReminder, ...NOTIFIES, ...PUSHES], sns: true, ses: true },
    timeout: 300,
  },
  // Brings stored items to the current form, in bounded pages, resuming where the last run stopped
  // (shared/migrations/; the deploy hook starts each deployment's run). Every migration but the
  // grievance area's, which it waits on in the one order (shared/registry/migration-order.ts).
  {
    name: 'migrations',
    handler: 'functions/schedules/run-migrations.ts',
    everySeconds: 300,
    localEverySeconds: 60,
    // `0009-avatars-keyed-tag` copies profile avatars to their keyed keys (shared/people/avatar-migration.ts).
    access: { table: 'write', scan: true, bucket: [{ prefix: 'avatars/', actions: ['read', 'write'] }] },
    timeout: 900,
  },
  // The grievance area's migrations, which open its seals: in a function of that area, so the grievance
  // key stays there (the deploy hook starts it too).
  {
    name: 'grievance-migrations',
    handler: 'functions/schedules/run-grievance-migrations.ts',
    everySeconds: 300,
    localEverySeconds: 60,
    access: { table: 'write', scan: true },
    timeout: 900,
  },
  // Completes team deletions whose clearing stopped (shared/people/team-deletion.ts).
  {
    name: 'team-deletion-sweep',
    handler: 'functions/schedules/resume-team-deletions.ts',
    everySeconds: 300,
    access: { table: 'write', writes: CHANGES_PEOPLE },
    timeout: 300,
  },
  // Works people's data exports and erasures, step by step, resuming where the last run stopped
  // (shared/data-rights/work.ts; docs/people-data.md). It walks the table
  // (Scan), rewrites what carries an erased person anywhere in it, and erases objects' every version.
  {
    name: 'data-rights-work',
    handler: 'functions/schedules/work-data-rights.ts',
    everySeconds: 60,
    localEverySeconds: 2,
    access: {
      table: 'write',
      scan: true,
      bucket: [
        { prefix: 'exports/', actions: ['read', 'write', 'erase'] },
        { prefix: 'posts/', actions: ['erase'] },
        { prefix: 'pending-uploads/', actions: ['erase'] },
        { prefix: 'avatars/', actions: ['erase'] },
        // The whole lists' documents: an erased person folded out, then their old versions erased.
        { prefix: 'documents/', actions: ['read', 'write', 'erase'] },
      ],
      // An erased person's push registrations take their platform endpoints with them.
      sns: true,
      // The notice of a super admin's export (shared/data-rights/export-notice.ts).
      ses: true,
      publicMedia: true,
      // Erased media leave CloudFront's edge caches (shared/storage/media-invalidation.ts).
      invalidatesMedia: true,
    },
    timeout: 900,
    memory: 1024,
  },
  // Starts the erasure of people deactivated longer than PEOPLE_RETENTION_DAYS, when set (shared/data-rights/retention.ts).
  {
    name: 'people-retention',
    handler: 'functions/schedules/apply-people-retention.ts',
    dailyAt: '02:30',
    access: { table: 'write', writes: [PersonErasure, User] },
    timeout: 300,
  },
  // Erases grievances finished longer than GRIEVANCE_RETENTION_DAYS ago, when set (shared/grievances/retention.ts).
  {
    name: 'grievance-retention',
    handler: 'functions/schedules/erase-expired-grievances.ts',
    dailyAt: '03:00',
    timeout: 300,
  },
];
