import { type EntityItem, entity, keyOnly, shape } from '../../db/entity.ts';
import type { MeetingType } from './types.ts';

/**
 * The meetings' entities (docs/data-model.md, Calendar): each item's key and index attributes, declared
 * once. A person's calendar is gsi1 (by start) and gsi2 (by end) under `MEETINGS#<userId>`: the meeting
 * item carries the organizer's entries, each seat its participant's. gsi3/gsi4 = every meeting by
 * start / by end (the super admin's view). A long meeting (over LONG_MEETING_MS) is also in the sparse
 * gsi6 (the person's, `MEETINGS_LONG#<userId>`) and gsi7 (every one, `MEETINGS_LONG_ALL`), sorted by
 * its end in epoch ms: a time window reads the short meetings by start from LONG_MEETING_MS before the
 * window, and the long ones still running when it opens from these (list.ts).
 */

/** Meetings longer than this are "long": indexed by their end as well (list.ts reads them apart). */
export const LONG_MEETING_MS = 6 * 3600_000;
const isLong = (m: { startUtc: string; endUtc: string }) =>
  Date.parse(m.endUtc) - Date.parse(m.startUtc) > LONG_MEETING_MS;
const endMs = (m: { endUtc: string }) => Date.parse(m.endUtc);

/** The meeting, the truth every answer is built from: in its organizer's calendar and in the list of every meeting. */
export const Meeting = entity({
  name: 'Meeting',
  fields: shape<{
    id: string;
    topic: string;
    description: string;
    /** As given (offset kept); `startUtc` / `endUtc` are the same instants in UTC for keys and filters. */
    startsAt: string;
    endsAt: string;
    startUtc: string;
    endUtc: string;
    type: MeetingType;
    meetLink: string;
    recordingLink: string | null;
    transcriptLink: string | null;
    organizerId: string;
    /** Internal participants, in the order given, without duplicates and never the organizer. */
    participantIds: string[];
    externalEmails: string[];
    cancelledAt: string | null;
    createdAt: string;
    updatedAt: string;
    /** Bumped by every write: the optimistic lock, the seats' freshness and the iCalendar SEQUENCE. */
    version: number;
    actorId: string;
  }>(),
  key: { pk: ['MEETING', 'id'], sk: ['MEETING'] },
  indexes: {
    calendarByStart: { index: 'gsi1', pk: ['MEETINGS', 'organizerId'], sk: ['startUtc', 'id'] },
    calendarByEnd: { index: 'gsi2', pk: ['MEETINGS', 'organizerId'], sk: ['endUtc', 'id'] },
    allByStart: { index: 'gsi3', pk: ['MEETINGS_ALL'], sk: ['startUtc', 'id'] },
    allByEnd: { index: 'gsi4', pk: ['MEETINGS_ALL'], sk: ['endUtc', 'id'] },
    longByEnd: { index: 'gsi6', pk: ['MEETINGS_LONG', 'organizerId'], sk: [endMs], when: isLong },
    allLongByEnd: { index: 'gsi7', pk: ['MEETINGS_LONG_ALL'], sk: [endMs], when: isLong },
  },
});
export type MeetingItem = EntityItem<typeof Meeting>;

/** One internal participant's seat: only indexes the meeting in that person's calendar. */
export const MeetingSeat = entity({
  name: 'MeetingSeat',
  fields: shape<{ meetingId: string; userId: string; startUtc: string; endUtc: string; version: number }>(),
  key: { pk: ['MEETING', 'meetingId'], sk: ['SEAT', 'userId'] },
  indexes: {
    calendarByStart: { index: 'gsi1', pk: ['MEETINGS', 'userId'], sk: ['startUtc', 'meetingId'] },
    calendarByEnd: { index: 'gsi2', pk: ['MEETINGS', 'userId'], sk: ['endUtc', 'meetingId'] },
    longByEnd: { index: 'gsi6', pk: ['MEETINGS_LONG', 'userId'], sk: [endMs], when: isLong },
  },
});
export type MeetingSeatItem = EntityItem<typeof MeetingSeat>;

/**
 * How many external recipients one person's meeting e-mail reached on one UTC day (mail-quota.ts):
 * moved with ADD in the transaction of the meeting write that sends the mail; gone a day later (TTL).
 */
export const MeetingMailQuota = entity({
  name: 'MeetingMailQuota',
  fields: shape<{ sent: number; ttl: number }>(),
  keyOnly: keyOnly<{ userId: string; day: string }>('userId', 'day'),
  key: { pk: ['MEETING_MAIL', 'userId'], sk: ['DAY', 'day'] },
  inPlace: true,
});
