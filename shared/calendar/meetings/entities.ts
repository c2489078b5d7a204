import { entity } from '../../db/entity.ts';
import {
  allMeetingsByEndIndex,
  allMeetingsByStartIndex,
  calendarByEndIndex,
  calendarByStartIndex,
  meetingKey,
  meetingMailQuotaKey,
  meetingSeatKey,
} from '../../db/keys.ts';
import type { MeetingItem, MeetingSeatItem } from './model.ts';

/** The meetings' entities (docs/data-model.md, Calendar): each item's key and index attributes, declared once. */

type Times = Pick<MeetingItem, 'id' | 'startUtc' | 'endUtc'>;

/** A person's calendar entry for a meeting (gsi1 by start, gsi2 by end), for the organizer and each seat. */
const calendarIndexes = <T>(userOf: (item: T) => string, timesOf: (item: T) => Times) => [
  {
    index: calendarByStartIndex.index,
    pk: (item: T) => calendarByStartIndex.pk(userOf(item)),
    sk: (item: T) => calendarByStartIndex.sk(timesOf(item).startUtc, timesOf(item).id),
  },
  {
    index: calendarByEndIndex.index,
    pk: (item: T) => calendarByEndIndex.pk(userOf(item)),
    sk: (item: T) => calendarByEndIndex.sk(timesOf(item).endUtc, timesOf(item).id),
  },
];

/** The meeting, the truth every answer is built from: in its organizer's calendar and in the list of every meeting. */
export const Meeting = entity<MeetingItem, [meetingId: string]>({
  name: 'Meeting',
  key: meetingKey,
  keyOf: (m) => [m.id],
  indexes: [
    ...calendarIndexes<Omit<MeetingItem, 'pk' | 'sk' | 'entity'>>(
      (m) => m.organizerId,
      (m) => m,
    ),
    {
      index: allMeetingsByStartIndex.index,
      pk: () => allMeetingsByStartIndex.pk,
      sk: (m) => allMeetingsByStartIndex.sk(m.startUtc, m.id),
    },
    {
      index: allMeetingsByEndIndex.index,
      pk: () => allMeetingsByEndIndex.pk,
      sk: (m) => allMeetingsByEndIndex.sk(m.endUtc, m.id),
    },
  ],
});

/** One internal participant's seat: only indexes the meeting in that person's calendar. */
export const MeetingSeat = entity<MeetingSeatItem, [meetingId: string, userId: string]>({
  name: 'MeetingSeat',
  key: meetingSeatKey,
  keyOf: (s) => [s.meetingId, s.userId],
  indexes: calendarIndexes<Omit<MeetingSeatItem, 'pk' | 'sk' | 'entity'>>(
    (s) => s.userId,
    (s) => ({ id: s.meetingId, startUtc: s.startUtc, endUtc: s.endUtc }),
  ),
});

/**
 * How many external recipients one person's meeting e-mail reached on one UTC day (mail-quota.ts):
 * moved with ADD in the transaction of the meeting write that sends the mail; gone a day later (TTL).
 */
export interface MeetingMailQuotaItem {
  pk: string;
  sk: string;
  entity: 'MeetingMailQuota';
  sent: number;
  ttl: number;
}
export const MeetingMailQuota = entity<MeetingMailQuotaItem, [userId: string, day: string]>({
  name: 'MeetingMailQuota',
  key: meetingMailQuotaKey,
});
