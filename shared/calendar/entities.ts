import { entity } from '../db/entity.ts';
import {
  birthdayAnnouncementKey,
  birthdayWishKey,
  companyEventKey,
  eventsByStartIndex,
  longEventsByEndIndex,
  wishCounterKey,
  wishesReceivedIndex,
} from '../db/keys.ts';
import type { AnnouncementItem } from './birthdays/announce.ts';
import type { WishItem } from './birthdays/wishes.ts';
import type { CompanyEventItem } from './events.ts';

/**
 * The calendar area's entities (docs/data-model.md, Calendar), each declared once: company events and
 * birthdays (meetings have their own module, `meetings/entities.ts`).
 */

const DAY_MS = 24 * 3600 * 1000;
/** Events lasting longer than this are also indexed by end (gsi5), so the start query can look back only this far. */
export const LONG_EVENT_MS = DAY_MS;

const isLong = (e: Pick<CompanyEventItem, 'endsAt' | 'startUtc' | 'endUtc'>) =>
  e.endsAt !== null && Date.parse(e.endUtc) - Date.parse(e.startUtc) > LONG_EVENT_MS;

/** A company event: on gsi4 by start, and on gsi5 by end (sparse) while it lasts longer than a day. */
export const CompanyEvent = entity<CompanyEventItem, [eventId: string]>({
  name: 'CompanyEvent',
  key: companyEventKey,
  keyOf: (e) => [e.id],
  indexes: [
    {
      index: eventsByStartIndex.index,
      pk: () => eventsByStartIndex.pk,
      sk: (e) => eventsByStartIndex.sk(e.startUtc, e.id),
    },
    {
      index: longEventsByEndIndex.index,
      pk: (e) => (isLong(e) ? longEventsByEndIndex.pk : undefined),
      sk: (e) => (isLong(e) ? longEventsByEndIndex.sk(e.endUtc, e.id) : undefined),
    },
  ],
});

/** A birthday wish, listed for its recipient and year on gsi1, newest first. */
export const BirthdayWish = entity<WishItem, [wishId: string]>({
  name: 'BirthdayWish',
  key: birthdayWishKey,
  keyOf: (w) => [w.id],
  indexes: [
    {
      index: wishesReceivedIndex.index,
      pk: (w) => wishesReceivedIndex.pk(w.recipientId, w.year),
      sk: (w) => wishesReceivedIndex.sk(w.createdAt, w.id),
    },
  ],
});

/** How many wishes a person received in a year (`wishCount`), moved with ADD in the transaction of each first wish. */
export interface WishCounterItem {
  pk: string;
  sk: string;
  entity: 'WishCounter';
  wishCount: number;
}
export const WishCounter = entity<WishCounterItem, [recipientId: string, year: string]>({
  name: 'WishCounter',
  key: wishCounterKey,
});

/** The claim and progress of one person's birthday announcement on one day. */
export const BirthdayAnnouncement = entity<AnnouncementItem, [date: string, userId: string]>({
  name: 'BirthdayAnnouncement',
  key: birthdayAnnouncementKey,
  keyOf: (a) => [a.date, a.userId],
});
