import type { Item } from '../db/table.ts';
import type { ReadMark } from '../notifications/notifications.ts';
import { FAVOURITE_FIELDS, LINK_FIELDS, WORK_AND_INTEREST_FIELDS } from '../people/profile-fields.ts';

/**
 * The export's document (docs/people-data.md): one JSON object, a section per
 * kind of data, holding what the service stores about the person and what the API shows them. What
 * each kind gives is declared below (EXPORTED): whose items of the kind are the person's or about them,
 * and the fields exported; any other field (internal marks such as `legalHold`, `erasureId`, `actorId`,
 * leases, keys and index attributes, secrets) is left out because it is not listed.
 */
export const EXPORT_FORMAT = 'workplace-person-data/1';
/** Every export's objects, under one prefix: the bucket's lifecycle backstop (infra/stacks/data-stack.ts) and the worker's grant. */
export const EXPORTS_PREFIX = 'exports/';
/** Where an export's objects live: its pages while it runs, then its document. */
export const exportPrefix = (exportId: string) => `${EXPORTS_PREFIX}${exportId}/`;
export const partsPrefix = (exportId: string) => `${exportPrefix(exportId)}parts/`;
export const partKey = (exportId: string, n: number) => `${partsPrefix(exportId)}${String(n).padStart(6, '0')}.json`;
export const documentKey = (exportId: string) => `${exportPrefix(exportId)}data.json`;

/** Days a ready export is kept before its document is erased. */
export const EXPORT_KEEP_DAYS = 7;
/** Seconds a link to the document stays valid (the `GET` that answers it signs a new one). */
export const EXPORT_LINK_SECONDS = 15 * 60;

/** What the export says of the grievance channel, in plain words. */
export const GRIEVANCE_STATEMENT =
  'Nothing you wrote in the anonymous grievance channel is included, and it cannot be: the channel keeps no usable link from a person to the grievances they raised or the replies they wrote, so nobody, the company included, can find them by your name.';

/** What the export says of survey answers (docs/surveys.md), in plain words. */
export const SURVEY_STATEMENT =
  'The surveys you were asked are listed (section surveys); your answers are not, and cannot be: they are stored apart from you, counted into totals that name nobody. While a survey is open you can read and change your own answer through your own session (GET /api/v1/surveys/{id}/answer); only the service, with a key outside the data, can find it for you.';

/** What deciding whether an item is about the person may look up (cached by the walk's step). */
export interface ExportContext {
  /** Whether a post exists and is not hidden (others' hidden posts, and their comments, are not shown). */
  postShown: (postId: string) => Promise<boolean>;
  /** The person's read-up-to mark (their notifications dated before it read as read). */
  readMark?: (userId: string) => Promise<ReadMark | null>;
}

/** One kind's part of the document: which of its items, and which of their fields. */
export interface ExportedKind {
  /** Whether the item is the person's own or about them as the API shows it to them. */
  about: (item: Item, userId: string, ctx: ExportContext) => boolean | Promise<boolean>;
  /** The fields exported: every other field is left out. */
  fields: readonly string[];
}

const own =
  (field: string) =>
  (item: Item, userId: string): boolean =>
    item[field] === userId;
const names = (item: Item, field: string, userId: string) =>
  Array.isArray(item[field]) ? (item[field] as unknown[]).includes(userId) : false;

/**
 * The person's own profile as exported. Not exported: `legalHold` and `erasureId` (the company's marks),
 * `actorId` (who last changed it: an internal attribution), `rev` (a concurrency counter).
 */
export const PROFILE_FIELDS = [
  'id',
  'email',
  'name',
  'role',
  'status',
  'image',
  ...WORK_AND_INTEREST_FIELDS,
  'joinedAt',
  'joinedOn',
  'dateOfBirth',
  'isFeatured',
  'featuredNote',
  'featuredAt',
  'reportCount',
  'postCount',
  'lastSeenAt',
  'updatedAt',
  'deactivatedAt',
  // What the company says of their department, team, manager and location where it differs from what
  // they say (audiences select by it: docs/audiences.md).
  'company',
  ...LINK_FIELDS,
  ...FAVOURITE_FIELDS,
] as const;

/** Another person's profile appears only as the link it has with them: their report. */
export const REPORT_FIELDS = ['id', 'name', 'managerId'] as const;

const POST_FIELDS = [
  'id',
  'authorId',
  'content',
  'tags',
  'images',
  'videos',
  'documents',
  'poll',
  'recognition',
  'isAnnouncement',
  'hidden',
  'sharedPostId',
  'mentionedIds',
  'createdAt',
  'updatedAt',
  'editedAt',
] as const;

const COMMENT_FIELDS = [
  'id',
  'postId',
  'parentId',
  'authorId',
  'content',
  'mentionedIds',
  'likeCount',
  'dislikeCount',
  'replyCount',
  'createdAt',
  'editedAt',
] as const;

/**
 * Every kind that has a section in the document (rules.ts names the section), by entity name. A kind
 * with a section and no entry here is a bug (a test checks both lists agree). Notifications are opened
 * from their seal in export.ts (their recipient's only, never a grievance one), and another person's
 * profile gives REPORT_FIELDS when the person is their manager.
 */
export const EXPORTED: Record<string, ExportedKind> = {
  User: { about: own('id'), fields: PROFILE_FIELDS },
  TeamMember: { about: own('userId'), fields: ['teamId', 'userId'] },
  Session: {
    about: own('userId'),
    fields: ['id', 'userId', 'createdAt', 'updatedAt', 'expiresAt', 'userAgent', 'revoked'],
  },
  Credentials: { about: own('userId'), fields: ['userId'] },
  // Their single sign-on link (the provider's subject for them).
  SsoMemberLink: { about: own('userId'), fields: ['providerId', 'subject', 'linkedAt'] },
  // Their link to the company's identity provider (SCIM), as the provider sent it.
  ScimUser: {
    about: own('userId'),
    fields: ['userId', 'externalId', 'givenName', 'familyName', 'department', 'createdAt', 'updatedAt'],
  },
  // The link a SCIM DELETE ended, as the provider had sent it.
  ScimEndedLink: { about: own('userId'), fields: ['userId', 'externalId', 'endedAt'] },
  // Their posts (hidden ones included: they see them), and others' posts about them that they can see.
  Post: {
    about: (p, me) =>
      p.authorId === me || (!p.hidden && (names(p, 'mentionedIds', me) || p.recognition?.recipientId === me)),
    fields: POST_FIELDS,
  },
  // Their posts scheduled for later, as they wrote them.
  ScheduledPost: { about: own('authorId'), fields: ['id', 'publishAt', 'input', 'createdAt', 'updatedAt', 'failure'] },
  PostReaction: { about: own('userId'), fields: ['postId', 'userId', 'reaction', 'reactedAt'] },
  // Their part in must-read announcements: pending or acknowledged, and when.
  MustReadAck: { about: own('userId'), fields: ['postId', 'userId', 'status', 'addedAt', 'acknowledgedAt'] },
  // The surveys they were asked, never whether or how they answered (docs/surveys.md).
  SurveyMember: { about: own('userId'), fields: ['surveyId', 'run', 'closesAt', 'slices'] },
  SurveyOwner: { about: own('userId'), fields: ['userId', 'namedAt'] },
  PollVote: { about: own('userId'), fields: ['postId', 'userId', 'optionId', 'votedAt'] },
  // Their comments, and others' comments mentioning them on a post they can see.
  Comment: {
    about: async (c, me, ctx) =>
      c.authorId === me || (names(c, 'mentionedIds', me) && (await ctx.postShown(String(c.postId)))),
    fields: COMMENT_FIELDS,
  },
  // The reports they filed (theirs), and the reports on what they wrote: counts and the decision, never who reported.
  ReportFiling: { about: own('reporterId'), fields: ['reportId', 'round', 'reason', 'details', 'createdAt'] },
  ContentReport: {
    about: own('authorId'),
    fields: [
      'id',
      'kind',
      'postId',
      'commentId',
      'status',
      'reporterCount',
      'reasons',
      'firstReportedAt',
      'reviewedAt',
      'note',
    ],
  },
  CommentVote: { about: own('userId'), fields: ['commentId', 'postId', 'userId', 'vote'] },
  Bookmark: { about: own('userId'), fields: ['postId', 'userId', 'createdAt'] },
  // Whom they follow; who follows them is shown by no route, so it is not theirs to export.
  Follow: { about: own('userId'), fields: ['userId', 'followingId', 'createdAt'] },
  PostUpload: {
    about: own('ownerId'),
    fields: [
      'id',
      'ownerId',
      'kind',
      'mimeType',
      'name',
      'sizeBytes',
      'width',
      'height',
      'objectKey',
      'renditions',
      'status',
      'createdAt',
    ],
  },
  // Their own score totals; others' scores (which their actions moved) are not theirs.
  FeedScore: { about: own('userId'), fields: ['userId', 'reactions', 'comments', 'shares', 'posts'] },
  CompanyEvent: {
    about: own('createdById'),
    fields: ['id', 'title', 'startsAt', 'endsAt', 'location', 'createdById', 'createdAt'],
  },
  BirthdayWish: {
    about: (w, me) => w.recipientId === me || w.authorId === me,
    fields: [
      'id',
      'recipientId',
      'authorId',
      'year',
      'message',
      'createdAt',
      'updatedAt',
      'loved',
      'reply',
      'repliedAt',
    ],
  },
  Meeting: {
    about: (m, me) => m.organizerId === me || names(m, 'participantIds', me),
    fields: [
      'id',
      'topic',
      'description',
      'startsAt',
      'endsAt',
      'type',
      'meetLink',
      'recordingLink',
      'transcriptLink',
      'organizerId',
      'participantIds',
      'externalEmails',
      'cancelledAt',
      'createdAt',
      'updatedAt',
    ],
  },
  MeetingSeat: { about: own('userId'), fields: ['meetingId', 'userId', 'startUtc', 'endUtc'] },
  // Leave they asked for, and leave they were asked to decide or decided.
  LeaveRequest: {
    about: (r, me) => r.employeeId === me || r.selectedManagerId === me || r.processedById === me,
    fields: [
      'id',
      'employeeId',
      'leaveType',
      'fromDate',
      'toDate',
      'reason',
      'selectedManagerId',
      'status',
      'processedById',
      'processedAt',
      'processComment',
      'createdAt',
    ],
  },
  AttendanceRecord: { about: own('employeeId'), fields: ['employeeId', 'date', 'checkIn', 'checkOut'] },
  Presence: { about: own('userId'), fields: ['userId', 'presence', 'updatedAt'] },
  PresenceConnection: { about: own('userId'), fields: ['userId', 'lastHeartbeatAt', 'lastActiveAt'] },
  PushToken: {
    about: own('userId'),
    fields: ['userId', 'platform', 'userAgent', 'createdAt', 'updatedAt', 'disabledAt'],
  },
  NotificationPrefs: { about: own('userId'), fields: ['userId', 'pushEnabled', 'updatedAt'] },
  // Reach (docs/reach.md): what they saw and did with each post, and their read-receipt choice.
  PostSeen: {
    about: own('userId'),
    fields: ['postId', 'userId', 'seenAt', 'reactedAt', 'commentedAt', 'acknowledgedAt'],
  },
  ReadReceiptChoice: { about: own('userId'), fields: ['userId', 'optedOut', 'updatedAt'] },
  // Their copies: who asked (themselves or a super admin), when, and what each held.
  DataExport: {
    about: own('userId'),
    fields: ['id', 'userId', 'requestedBy', 'requestedAt', 'status', 'readyAt', 'expiresAt', 'counts'],
  },
  // What they did as a super admin (the admin audit log): their entries as the actor.
  AuditEntry: { about: own('actorId'), fields: ['at', 'actorId', 'action', 'targetIds', 'changed', 'requestId'] },
};

/** An item as the export shows it: the listed fields it holds (sets as lists), nothing else. */
export function pick(item: Item, fields: readonly string[]): Item {
  const out: Item = {};
  for (const k of fields) {
    const v = item[k];
    if (v === undefined) continue;
    out[k] = v instanceof Set ? [...v] : v;
  }
  return out;
}

/** One page's contribution: items by section. */
export type Sections = Record<string, Item[]>;

export function mergeSections(into: Sections, from: Sections): Sections {
  for (const [name, items] of Object.entries(from)) into[name] = [...(into[name] ?? []), ...items];
  return into;
}
