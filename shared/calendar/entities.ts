import { type EntityItem, entity, keyOnly, shape } from '../db/entity.ts';

/**
 * The calendar area's entities (docs/data-model.md, Calendar), each declared once: company events and
 * birthdays (meetings have their own module, `meetings/entities.ts`). Times in sort keys are UTC ISO
 * strings (`toISOString`, fixed width), so string order is time order; the items keep the offset each
 * time was given in for the answers.
 */

const DAY_MS = 24 * 3600 * 1000;
/** Events lasting longer than this are also indexed by end (gsi5), so the start query can look back only this far. */
export const LONG_EVENT_MS = DAY_MS;

type CompanyEventFields = {
  id: string;
  title: string;
  startsAt: string;
  endsAt: string | null;
  location: string;
  createdById: string;
  createdAt: string;
  actorId: string;
  /** UTC forms of the start and the effective end (endsAt, else startsAt), for keys and filters. */
  startUtc: string;
  endUtc: string;
  /**
   * A targeted event (docs/audiences.md, "Targeted content"): the audience its creator gave (a named
   * audience's `id` or a `rule`, and `dynamic`). Off the company's indexes: on its readers' (`EventReader`).
   */
  audience?: { id?: string; rule?: unknown; dynamic?: boolean };
};

const isLong = (e: Pick<CompanyEventFields, 'endsAt' | 'startUtc' | 'endUtc'>) =>
  e.endsAt !== null && Date.parse(e.endUtc) - Date.parse(e.startUtc) > LONG_EVENT_MS;
/** Whether an event is for everybody (on the company's indexes). */
const forEverybody = (e: Pick<CompanyEventFields, 'audience'>) => !e.audience;

/** A company event: on gsi4 by start, and on gsi5 by end (sparse) while it lasts longer than a day. */
export const CompanyEvent = entity({
  name: 'CompanyEvent',
  fields: shape<CompanyEventFields>(),
  key: { pk: ['EVENT', 'id'], sk: ['EVENT'] },
  indexes: {
    byStart: { index: 'gsi4', pk: ['EVENTS'], sk: ['startUtc', 'id'], when: forEverybody },
    longByEnd: { index: 'gsi5', pk: ['EVENTS_LONG'], sk: ['endUtc', 'id'], when: (e) => isLong(e) && forEverybody(e) },
  },
});
export type CompanyEventItem = EntityItem<typeof CompanyEvent>;

/**
 * A targeted event's audience as frozen (docs/audiences.md), written with the event: its rule (a named
 * audience's copied), who joined by `cutoff`, and the progress of the background pass that records
 * each person as an `EventReader` (shared/feed/event-audience.ts). A dynamic one is on gsi1 until
 * `followUntil` (later joiners are added).
 */
export const EventAudience = entity({
  name: 'EventAudience',
  fields: shape<{
    eventId: string;
    authorId: string;
    /** An audience rule (shared/audiences/rule.ts), checked when the event was created. */
    rule: unknown;
    audienceId: string | null;
    dynamic: boolean;
    cutoff: string;
    cursor: string | null;
    step: number;
    sent: number;
    createdAt: string;
    doneAt?: string;
    followUntil?: string;
  }>(),
  key: { pk: ['EVENT', 'eventId'], sk: ['AUDIENCE'] },
  indexes: {
    following: {
      index: 'gsi1',
      pk: ['DYNAMIC_EVENT_AUDIENCES'],
      sk: ['followUntil', 'eventId'],
      when: (a) => a.dynamic && !!a.followUntil,
    },
  },
});
export type EventAudienceItem = EntityItem<typeof EventAudience>;

/**
 * One person who may see a targeted event, with copies of its times: on the person's own event indexes
 * (gsi4 by start, gsi5 by end while it lasts longer than a day), which the list merges with the
 * company's. A moved event's copies are moved in the background (shared/feed/event-audience.ts).
 */
export const EventReader = entity({
  name: 'EventReader',
  fields: shape<{
    eventId: string;
    userId: string;
    how: 'author' | 'publish' | 'joined';
    addedAt: string;
    startUtc: string;
    endUtc: string;
    endsAt: string | null;
  }>(),
  key: { pk: ['EVENT', 'eventId'], sk: ['READER', 'userId'] },
  indexes: {
    byStart: { index: 'gsi4', pk: ['EVENTS_FOR', 'userId'], sk: ['startUtc', 'eventId'] },
    longByEnd: { index: 'gsi5', pk: ['EVENTS_LONG_FOR', 'userId'], sk: ['endUtc', 'eventId'], when: isLong },
  },
});
export type EventReaderItem = EntityItem<typeof EventReader>;

/** A birthday wish (id derived from recipient, year and author: one per author per birthday), listed for its recipient and year on gsi1. */
export const BirthdayWish = entity({
  name: 'BirthdayWish',
  fields: shape<{
    id: string;
    recipientId: string;
    authorId: string;
    year: string;
    message: string;
    createdAt: string;
    updatedAt: string;
    loved: boolean;
    reply: string | null;
    repliedAt: string | null;
    /** Set once, by the first heart / first reply: later ones do not notify. */
    firstLovedAt?: string;
    firstRepliedAt?: string;
    actorId: string;
  }>(),
  key: { pk: ['WISH', 'id'], sk: ['WISH'] },
  indexes: { received: { index: 'gsi1', pk: ['WISHES', 'recipientId', 'year'], sk: ['createdAt', 'id'] } },
});
export type WishItem = EntityItem<typeof BirthdayWish>;

/** How many wishes a person received in a year (`wishCount`), moved with ADD in the transaction of each first wish. */
export const WishCounter = entity({
  name: 'WishCounter',
  fields: shape<{ wishCount: number }>(),
  keyOnly: keyOnly<{ recipientId: string; year: string }>('recipientId', 'year'),
  key: { pk: ['USER', 'recipientId'], sk: ['WISHES', 'year'] },
  inPlace: true,
});

/**
 * A pass of birthday notifications over the company, in pages, held by the claim that started it (a
 * take-over changes `claimId`, which stops an older sender).
 */
interface AudiencePass {
  claimId: string;
  /** Members who joined at or before this instant (the first claim's) are the audience. */
  cutoff: string;
  /** Pages recorded so far, and the cursor of the next page (null before the first). */
  step: number;
  cursor: string | null;
  /** Notifications written or revised in this pass (this round, for a day). */
  sent: number;
  heartbeatAt: string;
  doneAt?: string;
  ttl: number;
}

/**
 * The claim of one person's birthday announcement on one day (the day's claims share a partition): it decides
 * once who announces them; the company fan-out adds them to the day (`BirthdayDay`) and sets `doneAt`. The
 * progress fields were the per-person sender's of earlier releases (a claim of theirs left unfinished is
 * finished the same way).
 */
export const BirthdayAnnouncement = entity({
  name: 'BirthdayAnnouncement',
  fields: shape<{ userId: string; date: string } & AudiencePass>(),
  key: { pk: ['BIRTHDAY_ANNOUNCEMENTS', 'date'], sk: ['userId'] },
});
export type AnnouncementItem = EntityItem<typeof BirthdayAnnouncement>;

/**
 * A company day's birthday notification (decisions §8: one per person per day), sent by the
 * `company-fan-out` consumer (shared/calendar/birthdays/announce.ts): the day's birthday people known
 * so far (`people`, each added once, by the claim that announced them), the id every recipient's
 * notification of the day has (`noticeId`: one item per person and day, updated in place), and the
 * pass under way: `round` (one more each time people are added, which starts the pass over from the
 * first page), the page cursor and step it is at, conditional on `claimId` (a take-over or a new round
 * changes it, which stops any older sender). TTL 40 days.
 */
export const BirthdayDay = entity({
  name: 'BirthdayDay',
  fields: shape<{ date: string; people: string[]; noticeId: string; round: number } & AudiencePass>(),
  key: { pk: ['BIRTHDAY_DAY', 'date'], sk: ['DAY'] },
});
export type BirthdayDayItem = EntityItem<typeof BirthdayDay>;
