import * as audienceEntities from '../audiences/entities.ts';
import * as auditEntities from '../audit/entities.ts';
import * as authEntities from '../auth/entities.ts';
import * as calendarEntities from '../calendar/entities.ts';
import * as meetingEntities from '../calendar/meetings/entities.ts';
import { declarations } from '../db/entity.ts';
import { IdempotencyRecord } from '../db/idempotency-record.ts';
import * as feedEntities from '../feed/entities.ts';
// Loaded for their declarations (the anon kinds below).
import '../grievances/entities.ts';
import * as documentEntities from '../documents/entities.ts';
import * as hrEntities from '../hr/entities.ts';
import * as liveEntities from '../live/entities.ts';
import * as migrationEntities from '../migrations/entities.ts';
import * as moderationEntities from '../moderation/entities.ts';
import * as notificationEntities from '../notifications/entities.ts';
import * as peopleEntities from '../people/entities.ts';
import * as presenceEntities from '../presence/entities.ts';
import * as pushEntities from '../push/entities.ts';
import * as reachEntities from '../reach/entities.ts';
import * as scimEntities from '../scim/entities.ts';
import * as surveyEntities from '../surveys/entities.ts';
import * as officeEntities from '../website/entities.ts';
import * as dataRightsEntities from './entities.ts';
import type { AttributeKinds } from './person-match.ts';

/**
 * What people's data rights do with each kind of item that carries a person (docs/data-model.md, Data
 * rights; docs/people-data.md): the section of the export it goes to (none:
 * operational records, derived copies, counters), and what erasure does with it:
 * - `delete`: the person's own data (profile, sessions, credentials, notifications to them, presence,
 *   attendance, leave they asked for, follows, bookmarks, push registrations, uploads);
 * - `pseudonymise`: what others keep (posts, comments, reactions, votes, wishes they sent, decisions they
 *   made, events, the change log): every occurrence of their id becomes the erasure's fresh opaque id,
 *   so counters keep counting and lists keep their entries, attributed to nobody;
 * - `special`: decided item by item in erasure.ts (a deleted item whose counter moves with it, a
 *   notification naming them only inside its seal, a post losing their uploads);
 * - `untouched`: never carries a person's plain id (the grievance channel's items hold tags and seals
 *   only and are left to the grievance retention; the migrations' records; the jobs of data rights).
 * Every declared entity has a rule (a test checks it), so a new kind of item cannot be forgotten.
 */
export type ErasureRule = 'delete' | 'pseudonymise' | 'special' | 'untouched';

export interface DataRule {
  section?: string;
  erase: ErasureRule;
}

/** The grievance channel's kinds (declared `anon`): holding tags and seals only, left to the grievance retention. */
const grievanceKinds = (): Record<string, DataRule> =>
  Object.fromEntries([...declarations.values()].filter((d) => d.anon).map((d) => [d.name, { erase: 'untouched' }]));

export const dataRules: Record<string, DataRule> = {
  ...grievanceKinds(),
  // People and accounts.
  [peopleEntities.User.name]: { section: 'profile', erase: 'special' },
  [peopleEntities.TeamMember.name]: { section: 'teams', erase: 'special' },
  [peopleEntities.Team.name]: { erase: 'pseudonymise' },
  [peopleEntities.TeamName.name]: { erase: 'pseudonymise' },
  [peopleEntities.DirectoryShard.name]: { erase: 'special' },
  [peopleEntities.DirectoryShardPosts.name]: { erase: 'special' },
  [peopleEntities.DirectoryFacet.name]: { erase: 'pseudonymise' },
  // The person's directory row and terms: derived from their profile, theirs alone.
  [peopleEntities.DirectoryPerson.name]: { erase: 'delete' },
  [peopleEntities.DirectoryTerm.name]: { erase: 'delete' },
  // A row not folded yet into a whole list's document: theirs goes, another person's stays without them (erasure.ts).
  [documentEntities.DocumentChange.name]: { erase: 'special' },
  [documentEntities.DocumentLease.name]: { erase: 'untouched' },
  [authEntities.Session.name]: { section: 'sessions', erase: 'delete' },
  [authEntities.Credentials.name]: { section: 'account', erase: 'delete' },
  [authEntities.EmailClaim.name]: { erase: 'delete' },
  [authEntities.SignInThrottle.name]: { erase: 'delete' },
  [authEntities.PasswordCheckThrottle.name]: { erase: 'delete' },
  [authEntities.ResetToken.name]: { erase: 'delete' },
  // Single sign-on: the member's links to the provider's subject go with them; a sign-in in flight names nobody.
  [authEntities.SsoLink.name]: { erase: 'delete' },
  [authEntities.SsoMemberLink.name]: { section: 'identityProvider', erase: 'delete' },
  [authEntities.SsoState.name]: { erase: 'untouched' },
  // Feed.
  [feedEntities.Post.name]: { section: 'posts', erase: 'special' },
  [feedEntities.PostStats.name]: { erase: 'pseudonymise' },
  [feedEntities.PollClosedNotice.name]: { erase: 'pseudonymise' },
  [feedEntities.AnnouncementNotice.name]: { erase: 'pseudonymise' },
  [feedEntities.PostReaction.name]: { section: 'reactions', erase: 'pseudonymise' },
  // Must-reads (docs/must-read.md): the state names the author; a person's part is theirs, kept under
  // the opaque id so the exact counts still count it; the reminder names nobody.
  [feedEntities.MustRead.name]: { erase: 'pseudonymise' },
  [feedEntities.MustReadAck.name]: { section: 'acknowledgements', erase: 'pseudonymise' },
  [feedEntities.MustReadReminder.name]: { erase: 'untouched' },
  [feedEntities.PollVote.name]: { section: 'pollVotes', erase: 'special' },
  [feedEntities.Comment.name]: { section: 'comments', erase: 'pseudonymise' },
  [feedEntities.ReplyNotice.name]: { erase: 'pseudonymise' },
  [feedEntities.CommentVote.name]: { section: 'commentVotes', erase: 'pseudonymise' },
  [feedEntities.Bookmark.name]: { section: 'bookmarks', erase: 'delete' },
  [feedEntities.Follow.name]: { section: 'follows', erase: 'delete' },
  [feedEntities.PostListEntry.name]: { erase: 'pseudonymise' },
  [feedEntities.FollowedPost.name]: { erase: 'delete' },
  // Targeted posts (docs/audiences.md): the frozen audience's state names the author and its rule may
  // name people (the opaque id selects nobody); a person's place in an audience is theirs and goes.
  [feedEntities.PostAudience.name]: { erase: 'pseudonymise' },
  [feedEntities.PostReader.name]: { erase: 'delete' },
  [feedEntities.PostUpload.name]: { section: 'uploads', erase: 'special' },
  [feedEntities.FeedScore.name]: { section: 'feedScore', erase: 'special' },
  [feedEntities.FeedScoreDay.name]: { erase: 'special' },
  // A derived top list: their row kept under the opaque id (nobody's profile, so never answered).
  [feedEntities.LeaderboardTop.name]: { erase: 'pseudonymise' },
  [feedEntities.UploadQuota.name]: { erase: 'delete' },
  [feedEntities.ScheduledPost.name]: { section: 'scheduledPosts', erase: 'special' },
  [officeEntities.WebsiteEntry.name]: { erase: 'pseudonymise' },
  // Moderation: the reports they filed and those on what they wrote (counts only, nobody named); kept
  // under the opaque id so the counts stay whole.
  [moderationEntities.ContentReport.name]: { section: 'reportsOnTheirContent', erase: 'pseudonymise' },
  [moderationEntities.ReportFiling.name]: { section: 'reports', erase: 'pseudonymise' },
  [moderationEntities.ReportQuota.name]: { erase: 'delete' },
  [officeEntities.WebsiteCounts.name]: { erase: 'pseudonymise' },
  // Calendar.
  [calendarEntities.CompanyEvent.name]: { section: 'events', erase: 'pseudonymise' },
  // Targeted events (docs/audiences.md): the frozen audience names its creator and its rule may name
  // people (the opaque id selects nobody); a person's place in an audience is theirs and goes.
  [calendarEntities.EventAudience.name]: { erase: 'pseudonymise' },
  [calendarEntities.EventReader.name]: { erase: 'delete' },
  [calendarEntities.BirthdayWish.name]: { section: 'birthdayWishes', erase: 'special' },
  [calendarEntities.WishCounter.name]: { erase: 'delete' },
  [calendarEntities.BirthdayAnnouncement.name]: { erase: 'delete' },
  // The day's birthday people (its other people's notifications depend on it): the id replaced.
  [calendarEntities.BirthdayDay.name]: { erase: 'pseudonymise' },
  [meetingEntities.Meeting.name]: { section: 'meetings', erase: 'pseudonymise' },
  [meetingEntities.MeetingSeat.name]: { section: 'meetings', erase: 'pseudonymise' },
  [meetingEntities.MeetingMailQuota.name]: { erase: 'delete' },
  // HR.
  [hrEntities.LeaveRequest.name]: { section: 'leave', erase: 'special' },
  [hrEntities.LeaveSeen.name]: { erase: 'delete' },
  [hrEntities.AttendanceRecord.name]: { section: 'attendance', erase: 'special' },
  [hrEntities.PresentCounter.name]: { erase: 'pseudonymise' },
  // Presence, notifications, push.
  [presenceEntities.Presence.name]: { section: 'presence', erase: 'delete' },
  [presenceEntities.PresenceConnection.name]: { section: 'presence', erase: 'delete' },
  [notificationEntities.Notification.name]: { section: 'notifications', erase: 'special' },
  [notificationEntities.NotificationCounter.name]: { erase: 'special' },
  [notificationEntities.NotificationReadAll.name]: { erase: 'delete' },
  [pushEntities.PushToken.name]: { section: 'pushRegistrations', erase: 'special' },
  [pushEntities.NotificationPrefs.name]: { section: 'notificationSettings', erase: 'delete' },
  // Their link to the identity provider: ended (links.ts unlink, which renumbers the others) by erasure.ts.
  [scimEntities.ScimUser.name]: { section: 'identityProvider', erase: 'special' },
  [scimEntities.ScimUserSlot.name]: { erase: 'special' },
  [scimEntities.ScimExternalId.name]: { erase: 'special' },
  [scimEntities.ScimUserTotal.name]: { erase: 'untouched' },
  // What a SCIM DELETE of them ended: theirs alone.
  [scimEntities.ScimEndedLink.name]: { section: 'identityProvider', erase: 'delete' },
  // The change log keeps its events (replays stay whole) under the opaque id; stream leases are the person's.
  [liveEntities.LiveHead.name]: { erase: 'pseudonymise' },
  [liveEntities.LiveReplica.name]: { erase: 'pseudonymise' },
  [liveEntities.LiveEvent.name]: { erase: 'pseudonymise' },
  [liveEntities.LiveRecord.name]: { erase: 'pseudonymise' },
  [liveEntities.StreamLeases.name]: { erase: 'delete' },
  // Replayable answers of the person's requests: they expire within a day, erasure does not wait.
  [IdempotencyRecord.name]: { erase: 'delete' },
  [migrationEntities.Migration.name]: { erase: 'untouched' },
  // Data rights' own records: an export's audit record keeps who and when under the opaque id.
  [dataRightsEntities.DataExport.name]: { section: 'exports', erase: 'special' },
  [dataRightsEntities.DataExportClaim.name]: { erase: 'delete' },
  [dataRightsEntities.PersonErasure.name]: { erase: 'untouched' },
  // Audiences: a person named in a rule's `userIds` leaves it (erasure.ts); not part of their export (the
  // company's list, docs/audiences.md).
  [audienceEntities.Audience.name]: { erase: 'special' },
  // Reach (docs/reach.md): a person's marks on posts (what they saw, reacted to, commented on,
  // acknowledged) and their read-receipt choice are theirs and go; the roll-ups hold counts only (a
  // manager's slice names the manager: their id becomes the opaque id, the counts stay).
  [reachEntities.PostSeen.name]: { section: 'seen', erase: 'delete' },
  [reachEntities.ReadReceiptChoice.name]: { section: 'readReceipts', erase: 'delete' },
  [reachEntities.ReachTotal.name]: { erase: 'untouched' },
  [reachEntities.ReachDay.name]: { erase: 'untouched' },
  [reachEntities.ReachSlice.name]: { erase: 'pseudonymise' },
  [reachEntities.ReachSettings.name]: { erase: 'pseudonymise' },
  // Surveys (docs/surveys.md): a survey and the settings keep who made them under the opaque id; a
  // person's place in a run's audience goes with their participation record (erasure.ts), the roll-ups
  // (anon, naming nobody) keep counting their answer. The export lists the surveys they were asked.
  [surveyEntities.Survey.name]: { erase: 'pseudonymise' },
  [surveyEntities.SurveyMember.name]: { section: 'surveys', erase: 'special' },
  [surveyEntities.SurveyOwner.name]: { section: 'surveyOwner', erase: 'delete' },
  [surveyEntities.SurveySettings.name]: { erase: 'pseudonymise' },
  // The admin audit log keeps every entry (until its TTL) under the opaque id; their own actions are exported.
  [auditEntities.AuditEntry.name]: { section: 'auditLog', erase: 'pseudonymise' },
};

/**
 * The rule of a stored item's kind, or undefined for a kind this release does not declare (a newer
 * release's, during a rollback): the walk leaves such items alone and counts them (erasure.ts).
 */
export const ruleOf = (entityName: string): DataRule | undefined => dataRules[entityName];

/**
 * Where a kind's attributes are not matched as values (person-match.ts): free text, in which a person is
 * found only at an `@[id]` token (somebody's words that equal or contain an id or an address are
 * theirs), and JSON text, opened and matched inside. Every other attribute holds ids, addresses or
 * keys, matched as whole values and whole `#` segments. Names are found only in a notification's name
 * spans (erasure.ts); a date of birth only on the person's own profile, which goes whole.
 */
export const attributeKinds: Record<string, AttributeKinds> = {
  [peopleEntities.User.name]: { text: ['name', 'title', 'location', 'description', 'featuredNote', 'skills'] },
  [peopleEntities.Team.name]: { text: ['name', 'nameLower', 'description'] },
  [audienceEntities.Audience.name]: { text: ['name', 'nameLower'] },
  [surveyEntities.Survey.name]: { text: ['title', 'questions.text', 'questions.options'] },
  [feedEntities.Post.name]: {
    text: ['content', 'poll.question', 'poll.description', 'poll.options.text', 'recognition.message'],
  },
  [feedEntities.Comment.name]: { text: ['content'] },
  [feedEntities.ScheduledPost.name]: {
    text: [
      'input.content',
      'input.poll.question',
      'input.poll.description',
      'input.poll.options',
      'input.recognition.message',
    ],
  },
  [calendarEntities.CompanyEvent.name]: { text: ['title', 'location', 'description'] },
  [calendarEntities.BirthdayWish.name]: { text: ['message', 'reply'] },
  [meetingEntities.Meeting.name]: { text: ['topic', 'description'] },
  [hrEntities.LeaveRequest.name]: { text: ['reason', 'processComment', 'leaveType'] },
  [officeEntities.WebsiteEntry.name]: { text: ['review.reason'] },
  [moderationEntities.ContentReport.name]: { text: ['note'] },
  [moderationEntities.ReportFiling.name]: { text: ['details'] },
  // Notifications of the earlier form held their preview in the clear.
  [notificationEntities.Notification.name]: { text: ['preview'] },
  // The change log's inline copy of its newest events, as JSON.
  [liveEntities.LiveReplica.name]: { json: ['recent'] },
};

/** The attribute kinds of a stored item's kind (none declared: every attribute matched as values). */
export const kindsOf = (entityName: string): AttributeKinds => attributeKinds[entityName] ?? {};

/** Declared entities without a rule (the rules' test expects none). */
export const kindsWithoutRule = () => [...declarations.keys()].filter((name) => !(name in dataRules));
