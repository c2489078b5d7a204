import * as meetings from '../../calendar/meetings/entities.ts';
import { MEETING_STATUSES, MEETING_TYPES } from '../../calendar/meetings/types.ts';
import { offsetDateTime } from '../../util/time.ts';
import * as z from '../../util/zod.ts';
import { nextPageCursorParam, nextPageHeader } from '../query.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { accountFields, email, isoDateTime, linkOrHandle, nonBlank } from '../schemas/common.ts';
import { NOTIFIES } from '../writes.ts';

export const MeetingParticipant = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object(accountFields()), { id: 'MeetingParticipant' }),
);

export const Meeting = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      topic: z.string(),
      description: z.string(),
      startsAt: isoDateTime(),
      endsAt: isoDateTime(),
      status: z.enum(MEETING_STATUSES),
      type: z.enum(MEETING_TYPES),
      meetLink: z.string(),
      recordingLink: z.nullable(z.string()),
      transcriptLink: z.nullable(z.string()),
      organizer: MeetingParticipant,
      participants: z.array(MeetingParticipant),
      externalEmails: z.array(z.string()),
      canManage: z.boolean(),
    }),
    { id: 'Meeting' },
  ),
);

const max = (n: number) => `must be at most ${n} characters`;
const fields = /* @__PURE__ */ declared(() => ({
  topic: nonBlank(1, 160),
  description: z.string().check(z.maxLength(5000, max(5000))),
  startsAt: offsetDateTime(),
  endsAt: offsetDateTime(),
  internalParticipantIds: z
    .array(z.string().check(z.minLength(1)).check(z.maxLength(200)))
    .check(z.maxLength(100, 'must hold at most 100 people')),
  externalEmails: z.array(email()).check(z.maxLength(100, 'must hold at most 100 addresses')),
  type: z.enum(MEETING_TYPES),
  meetLink: linkOrHandle(1000),
}));

const httpUrl = (limit: number) =>
  z
    .string()
    .check(z.maxLength(limit, max(limit)))
    .check(z.refine((v) => /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(v) && URL.canParse(v), 'must be an http(s) URL'));

const M = `${API_PREFIX}/meetings`;

export const listMeetingsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-meetings',
    area: 'meetings',
    method: 'GET',
    path: M,
    auth: 'session',
    summary:
      'The caller\'s meetings (every meeting for a super admin) that overlap a time window, soonest first; a plain array. Filters combine with AND. Without `from` the window starts at the start of today in the company\'s timezone (earlier meetings need `from`); without `to` it ends 92 days after its start; a window longer than 366 days is a 400. At most 500 meetings an answer: when more match, the answer carries `Link: <…cursor=…>; rel="next"` for the rest.',
    query: z.strictObject({
      from: z.described(
        z.optional(offsetDateTime()),
        "meetings ending at or after this instant; default: the start of today in the company's timezone",
      ),
      to: z.described(
        z.optional(offsetDateTime()),
        'meetings starting at or before this instant; default: 92 days after `from`; at most 366 days after it',
      ),
      employeeId: z.described(
        z.optional(z.string().check(z.maxLength(200))),
        'super admins only: meetings this person organizes or joins; ignored for others',
      ),
      type: z.optional(z.enum(MEETING_TYPES)),
      status: z.optional(z.enum(MEETING_STATUSES)),
      search: z.described(
        z.optional(z.string().check(z.maxLength(200))),
        'case-insensitive substring of the topic or the description',
      ),
      cursor: nextPageCursorParam(),
    }),
    status: 200,
    response: z.array(Meeting),
    responseHeaders: [nextPageHeader],
    errors: [400],
  }),
);

export const createMeetingRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'create-meeting',
    area: 'meetings',
    method: 'POST',
    path: M,
    auth: 'session',
    summary:
      'Creates a meeting with the caller as organizer; participants are notified and everyone invited is e-mailed an iCalendar invitation. External addresses count towards a bound per organizer and day (MEETING_EXTERNAL_RECIPIENTS_PER_DAY, 200 by default): past it, 429 with Retry-After and nothing is saved.',
    body: z.strictObject({
      ...fields,
      description: z.optional(fields.description),
      internalParticipantIds: z._default(z.optional(fields.internalParticipantIds), []),
      externalEmails: z._default(z.optional(fields.externalEmails), []),
    }),
    idempotent: true,
    status: 201,
    response: Meeting,
    errors: [400, 429],
    access: {
      table: 'write',
      writes: [meetings.Meeting, meetings.MeetingSeat, meetings.MeetingMailQuota, ...NOTIFIES],
      ses: true,
    },
  }),
);

export const getMeetingRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-meeting',
    area: 'meetings',
    method: 'GET',
    path: `${M}/{meetingId}`,
    auth: 'session',
    summary: 'One meeting: its organizer, participants and super admins can read it (404 for anybody else).',
    status: 200,
    response: Meeting,
    errors: [404],
  }),
);

export const updateMeetingRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'update-meeting',
    area: 'meetings',
    method: 'PATCH',
    path: `${M}/{meetingId}`,
    auth: 'session',
    summary:
      'Changes a meeting (organizer only, before it starts); everyone invited is e-mailed the update. 429 (with Retry-After) when the e-mail would take the organizer past their daily bound of external recipients.',
    body: z.strictObject({
      topic: z.optional(fields.topic),
      description: z.optional(fields.description),
      startsAt: z.optional(fields.startsAt),
      endsAt: z.optional(fields.endsAt),
      internalParticipantIds: z.optional(fields.internalParticipantIds),
      externalEmails: z.optional(fields.externalEmails),
      type: z.optional(fields.type),
      meetLink: z.optional(fields.meetLink),
    }),
    status: 200,
    response: Meeting,
    errors: [400, 403, 404, 409, 429],
    access: {
      table: 'write',
      writes: [meetings.Meeting, meetings.MeetingSeat, meetings.MeetingMailQuota, ...NOTIFIES],
      ses: true,
    },
  }),
);

export const deleteMeetingRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'delete-meeting',
    area: 'meetings',
    method: 'DELETE',
    path: `${M}/{meetingId}`,
    auth: 'session',
    summary: 'Deletes a meeting (organizer only, before it starts). Nobody is notified. Answers 200 with no body.',
    status: 200,
    errors: [403, 404, 409],
    access: { table: 'write', writes: [meetings.Meeting, meetings.MeetingSeat] },
  }),
);

export const cancelMeetingRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'cancel-meeting',
    area: 'meetings',
    method: 'POST',
    path: `${M}/{meetingId}/cancel`,
    auth: 'session',
    summary:
      'Cancels a meeting (organizer only, before it starts): it stays on the calendar as CANCELLED; participants are told.',
    status: 200,
    response: Meeting,
    errors: [403, 404, 409],
    access: {
      table: 'write',
      writes: [meetings.Meeting, meetings.MeetingSeat, meetings.MeetingMailQuota, ...NOTIFIES],
      ses: true,
    },
  }),
);

export const updateMeetingRecordingRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'update-meeting-recording',
    area: 'meetings',
    method: 'PATCH',
    path: `${M}/{meetingId}/recording`,
    auth: 'session',
    summary: 'Attaches or clears (null) the recording and transcript links: the organizer, at any time.',
    body: z.strictObject({
      recordingLink: z.optional(z.nullable(httpUrl(2000))),
      transcriptLink: z.optional(z.nullable(httpUrl(2000))),
    }),
    status: 200,
    response: Meeting,
    errors: [400, 403, 404],
    access: { table: 'write', writes: [meetings.Meeting] },
  }),
);

export const meetingRoutes = [
  listMeetingsRoute,
  createMeetingRoute,
  getMeetingRoute,
  updateMeetingRoute,
  deleteMeetingRoute,
  cancelMeetingRoute,
  updateMeetingRecordingRoute,
];
