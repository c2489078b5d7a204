import { randomUUID } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { ABSENT, type UpdateParts } from '../../db/entity.ts';
import { newSortableId } from '../../db/ids.ts';
import { page as pageOf } from '../../db/paging.ts';
import {
  failedConditions,
  isConditionFailure,
  retryOnConflict,
  type TransactItem,
  transact,
  write,
} from '../../db/table.ts';
import { toItemChange } from '../../live/change-feed.ts';
import {
  type NameSpan,
  Notification,
  NotificationCounter,
  type NotificationCounterItem,
  type NotificationItem,
} from '../../notifications/entities.ts';
import {
  coveredBy,
  markOf,
  notificationContent,
  notificationItem,
  previewOf,
} from '../../notifications/notifications.ts';
import { NOTIFICATIONS_PER_TRANSACTION } from '../../notifications/notify-many.ts';
import { logger } from '../../observability/logger.ts';
import { User } from '../../people/entities.ts';
import { getUsers, type UserItem } from '../../people/users.ts';
import { inPool } from '../../util/in-pool.ts';
import { companyDate } from '../../util/time.ts';
import { type AnnouncementItem, BirthdayAnnouncement, BirthdayDay, type BirthdayDayItem } from '../entities.ts';

/**
 * The birthday notification (decisions §8): one `birthday` notification per person per company day,
 * naming that day's birthday people, to every active person who existed when the day's first
 * birthday was announced. Company-wide work, so no request does it:
 *
 * 1. Claims. Whichever comes first, the first `GET /birthdays/today` of the day or the birthday
 *    sweep, only claims each birthday person's announcement (a conditional put of the (day, person)
 *    claim, one write per birthday person): never twice.
 * 2. The day. The `company-fan-out` consumer (apart from every personal notification's consumer)
 *    receives the claims through the table's stream and adds their people to the day's item
 *    (`BirthdayDay`) in one transaction with the claims' `doneAt`. The first claims create it; later
 *    ones start a new round (the pass starts over from the first page, with a new `claimId` that stops
 *    any sender of the older round).
 * 3. The pass. The day item's stream record reaches the same consumer, which pages through the members
 *    index and writes each recipient's notification of the day (the id `noticeId`, the same for every
 *    recipient: an idempotent key per person and day) with the day's progress in one transaction per
 *    page, conditional on the round's `claimId` and its step: a page is recorded once however often the
 *    stream redelivers or senders race. A recipient who already holds the day's notification gets it
 *    revised in place (`revisedAt`, unread again, counted again only when it read as read), never a
 *    second one. Writes: one notification (and its counter) per person per round, and a round is one
 *    pass over the company: the day's first claims (the sweep's, all at once) make it one pass a day.
 *
 * A pass whose sender stopped (nothing recorded for STALE_MS) is taken over by the next reader of
 * `GET /birthdays/today` or the sweep, as a stalled claim is.
 */
/** A claim or a day whose sender has not recorded a page for this long is taken over. */
const STALE_MS = 2 * 60 * 1000;
const KEEP_DAYS = 40;
/** Birthday people claimed at once. */
const CLAIM_CONCURRENCY = 4;
/** Birthday people a preview names; the others are counted ("and 3 more"). */
export const NAMED_IN_PREVIEW = 3;

const ttlFrom = (now: Date) => Math.floor(now.getTime() / 1000) + KEEP_DAYS * 24 * 3600;

/**
 * The day's notification text for one recipient: the birthday people but them, sorted by name, the
 * first NAMED_IN_PREVIEW named (with where, for an erasure's rewrite), then how many more.
 */
export function birthdayPreview(named: { id: string; name: string }[]): { preview: string; names: NameSpan[] } {
  if (named.length === 1) {
    const [p] = named;
    return {
      preview: `It's ${p.name}'s birthday today. Send them your wishes!`,
      names: [{ id: p.id, at: "It's ".length, length: p.name.length }],
    };
  }
  const shown = named.slice(0, NAMED_IN_PREVIEW);
  const more = named.length - shown.length;
  let text = 'Birthdays today: ';
  const names: NameSpan[] = [];
  shown.forEach((p, i) => {
    if (i > 0) text += i === shown.length - 1 && more === 0 ? ' and ' : ', ';
    names.push({ id: p.id, at: text.length, length: p.name.length });
    text += p.name;
  });
  if (more > 0) text += ` and ${more} more`;
  return { preview: `${text}. Send them your wishes!`, names };
}

async function claim(person: UserItem, date: string): Promise<AnnouncementItem | null> {
  const now = new Date();
  const item = BirthdayAnnouncement.item({
    userId: person.id,
    date,
    claimId: randomUUID(),
    cutoff: now.toISOString(),
    step: 0,
    cursor: null,
    sent: 0,
    heartbeatAt: now.toISOString(),
    ttl: ttlFrom(now),
  });
  try {
    await write(BirthdayAnnouncement.create(item));
    return item;
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}

/**
 * Takes over a claim, or a day's pass, whose sender stopped before finishing (conditional on nobody
 * else doing so first): its new `claimId` reaches the consumer through the stream, which goes on from
 * the progress recorded.
 */
async function takeOver<T extends { claimId: string }>(
  write1: (parts: UpdateParts) => TransactItem,
  stale: T,
): Promise<boolean> {
  try {
    await write(
      write1({
        UpdateExpression: 'SET claimId = :new, heartbeatAt = :now',
        ConditionExpression: 'claimId = :old AND attribute_not_exists(doneAt)',
        ExpressionAttributeValues: { ':new': randomUUID(), ':old': stale.claimId, ':now': new Date().toISOString() },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

const isStale = (x: { heartbeatAt: string; doneAt?: string }) =>
  !x.doneAt && Date.now() - Date.parse(x.heartbeatAt) > STALE_MS;

/** Who hears about the day's birthdays: the members who joined at or before the cutoff, a page at a time (tests pass their own). */
export interface Audience {
  page(q: {
    cutoff: string;
    cursor: string | null;
    limit: number;
  }): Promise<{ ids: string[]; nextCursor: string | null }>;
}

/** Every active member, from the members index (sk `<joinedAt>#<id>`; '$' follows '#', so `< cutoff$` keeps joinedAt <= cutoff). */
export const activeMembers: Audience = {
  async page({ cutoff, cursor, limit }) {
    const page = await User.query(
      {
        index: 'members',
        key: {},
        skBefore: `${cutoff}$`,
        filter: {
          FilterExpression: '#status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':active': 'active' },
        },
      },
      pageOf({ limit, cursor: cursor ?? undefined }),
    );
    return { ids: page.items.map((u) => u.id), nextCursor: page.nextCursor };
  },
};

/**
 * Claims the announcement of each of these birthday people that nobody claimed yet, and takes over
 * stalled claims and a stalled day: at most one write per birthday person, whatever the company's
 * size. Answers the claims taken (a new claim reaches the consumer through the table's stream).
 * Costs one BatchGet of the claims and one read of the day when all are done already.
 */
export async function claimAnnouncements(people: UserItem[], date: string): Promise<AnnouncementItem[]> {
  if (people.length === 0) return [];
  const [found, day] = await Promise.all([
    BirthdayAnnouncement.getMany(
      people.map((p) => ({ date, userId: p.id })),
      { consistent: true },
    ),
    BirthdayDay.get({ date }, { consistent: true }),
  ]);
  const claims = new Map(people.map((p, i) => [p.id, found[i]]));
  const mine: AnnouncementItem[] = [];
  await inPool(people, CLAIM_CONCURRENCY, async (person) => {
    const existing = claims.get(person.id);
    if (existing?.doneAt) return;
    if (!existing) {
      const claimed = await claim(person, date);
      if (claimed) mine.push(claimed);
    } else if (isStale(existing) && (await takeOver((p) => BirthdayAnnouncement.update(existing, p), existing))) {
      mine.push(existing);
    }
  });
  if (day && isStale(day)) await takeOver((p) => BirthdayDay.update({ date }, p), day);
  return mine;
}

/**
 * Adds the claims' birthday people to the day (creating it with the first ones), marking the claims
 * done in the same transaction; people not known yet start a new round. Read again and retried when
 * the day moved meanwhile.
 */
export async function addToDay(date: string, claims: AnnouncementItem[]): Promise<void> {
  if (claims.length === 0) return;
  await retryOnConflict(
    async () => {
      const day = await BirthdayDay.get({ date }, { consistent: true });
      const now = new Date();
      const at = now.toISOString();
      const known = new Set(day?.people ?? []);
      const added = [...new Set(claims.map((c) => c.userId))].filter((id) => !known.has(id));
      const done = claims.map((c) =>
        BirthdayAnnouncement.update(c, {
          UpdateExpression: 'SET doneAt = :now, heartbeatAt = :now',
          ExpressionAttributeValues: { ':now': at },
        }),
      );
      const writes: TransactItem[] = [];
      if (!day) {
        const cutoff = claims.map((c) => c.cutoff).sort()[0];
        writes.push(
          BirthdayDay.create({
            date,
            people: added,
            noticeId: newSortableId(now),
            cutoff,
            round: 1,
            claimId: randomUUID(),
            step: 0,
            cursor: null,
            sent: 0,
            heartbeatAt: at,
            ttl: ttlFrom(now),
          }),
        );
      } else if (added.length) {
        writes.push(
          BirthdayDay.update(
            { date },
            {
              UpdateExpression:
                'SET people = :people, #round = #round + :one, #step = #step + :one, #cursor = :null, #sent = :zero, claimId = :new, heartbeatAt = :now REMOVE doneAt',
              ConditionExpression: 'claimId = :seen AND #step = :step',
              ExpressionAttributeNames: { '#round': 'round', '#step': 'step', '#cursor': 'cursor', '#sent': 'sent' },
              ExpressionAttributeValues: {
                ':people': [...day.people, ...added],
                ':one': 1,
                ':null': null,
                ':zero': 0,
                ':new': randomUUID(),
                ':now': at,
                ':seen': day.claimId,
                ':step': day.step,
              },
            },
          ),
        );
      }
      await transact([...writes, ...done]);
    },
    // The day was created or moved meanwhile (a page recorded, another claim added): decided again.
    { attempts: 21 },
  );
}

/**
 * The writes of one recipient's notification of the day, as `named` (the birthday people but them)
 * say it now, against what was read: nothing when it already says so (or their erasure started); else
 * a new item counted unread, or the stored one revised in place, unread again and counted again only
 * if it read as read. Conditional on the item's read state and the counter's mark as read, so a mark
 * read or a mark-all in between makes the page decide again.
 */
function dayNoticeWrites(
  recipientId: string,
  named: UserItem[],
  id: string,
  existing: NotificationItem | undefined,
  counter: NotificationCounterItem | undefined,
  now: Date,
): TransactItem[] {
  if (counter?.closed !== undefined) return [];
  const { preview, names } = birthdayPreview(named);
  const note = { recipientId, kind: 'birthday' as const, actorId: named[0].id, preview, names };
  const mark = counter?.readUpTo;
  const counterWrite = (add: boolean) => {
    const condition = {
      ConditionExpression: `attribute_not_exists(closed) AND ${mark ? 'readUpTo = :mark' : 'attribute_not_exists(readUpTo)'}`,
      ...(mark ? { ExpressionAttributeValues: { ':mark': mark } } : {}),
    };
    return add
      ? NotificationCounter.update(
          { userId: recipientId },
          {
            UpdateExpression: 'ADD #unread :one SET #entity = :entity',
            ConditionExpression: condition.ConditionExpression,
            ExpressionAttributeNames: { '#unread': 'unread', '#entity': 'entity' },
            ExpressionAttributeValues: {
              ...condition.ExpressionAttributeValues,
              ':one': 1,
              ':entity': NotificationCounter.name,
            },
          },
        )
      : NotificationCounter.check({ userId: recipientId }, condition);
  };
  if (!existing) {
    // Dated now; recorded after a mark that reaches past now (a mark-all's reach), so it reads unread.
    const after = mark && mark >= now.toISOString() ? mark : undefined;
    return [Notification.put(notificationItem(note, now, id, after), ABSENT), counterWrite(true)];
  }
  if (notificationContent(existing)?.preview === previewOf(preview)) return [];
  const wasUnread = existing.readAt === null && !coveredBy(existing, markOf(counter));
  // Dated as first recorded; a mark at or after that date would cover it: recorded after that mark.
  const after = mark && existing.createdAt <= mark ? mark : undefined;
  const revised = { ...notificationItem(note, new Date(existing.createdAt), id, after), revisedAt: now.toISOString() };
  return [
    Notification.put(revised, {
      ConditionExpression: 'attribute_exists(pk) AND readAt = :seen',
      ExpressionAttributeValues: { ':seen': existing.readAt },
    }),
    counterWrite(!wasUnread),
  ];
}

/**
 * Records one page of the day's pass: each recipient's notification of the day with the day's next
 * progress in one transaction, conditional on the round (`claimId`) and step read. Throws the
 * condition failure of the progress when another sender recorded the page or a new round began (the
 * caller stops); a recipient's item or counter that moved meanwhile is read again.
 */
async function recordDayPage(
  day: BirthdayDayItem,
  people: UserItem[],
  recipients: string[],
  nextCursor: string | null,
): Promise<void> {
  await retryOnConflict(
    async () => {
      const [items, counters] = await Promise.all([
        Notification.getMany(
          recipients.map((recipientId) => ({ recipientId, id: day.noticeId })),
          { consistent: true },
        ),
        NotificationCounter.getMany(
          recipients.map((userId) => ({ userId })),
          { consistent: true },
        ),
      ]);
      const now = new Date();
      const writes: TransactItem[] = [];
      let sent = 0;
      recipients.forEach((recipientId, i) => {
        const named = people.filter((p) => p.id !== recipientId);
        if (named.length === 0) return; // the day's only birthday person: nobody else to name
        const w = dayNoticeWrites(recipientId, named, day.noticeId, items[i], counters[i], now);
        if (w.length) sent += 1;
        writes.push(...w);
      });
      const done = nextCursor === null;
      const progress = BirthdayDay.update(
        { date: day.date },
        {
          UpdateExpression: `SET #step = :next, #cursor = :cursor, heartbeatAt = :now, #sent = #sent + :n${done ? ', doneAt = :now' : ''}`,
          ConditionExpression: 'claimId = :me AND #step = :step',
          ExpressionAttributeNames: { '#step': 'step', '#cursor': 'cursor', '#sent': 'sent' },
          ExpressionAttributeValues: {
            ':next': day.step + 1,
            ':cursor': nextCursor,
            ':now': now.toISOString(),
            ':n': sent,
            ':me': day.claimId,
            ':step': day.step,
          },
        },
      );
      await transact([progress, ...writes]);
    },
    // The progress's own condition (index 0) failing means another sender recorded the page: final.
    { attempts: 6, final: (err) => failedConditions(err).includes(0) },
  );
}

/**
 * Sends what is left of the day's round, page by page from the stored progress; stops quietly when
 * it is done or another sender took over (a new round, a take-over). An error leaves the progress as
 * recorded: the stream's retry, or a take-over once stale, goes on from it.
 */
export async function sendDay(date: string, claimId: string, audience: Audience = activeMembers): Promise<void> {
  let day = await BirthdayDay.get({ date }, { consistent: true });
  if (!day || day.doneAt || day.claimId !== claimId) return;
  const people = [...(await getUsers(day.people)).values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
  );
  for (;;) {
    const page = await audience.page({ cutoff: day.cutoff, cursor: day.cursor, limit: NOTIFICATIONS_PER_TRANSACTION });
    try {
      await recordDayPage(day, people, page.ids, page.nextCursor);
    } catch (err) {
      if (isConditionFailure(err) && failedConditions(err).includes(0)) return; // another sender goes on
      throw err;
    }
    if (page.nextCursor === null) return;
    day = { ...day, step: day.step + 1, cursor: page.nextCursor };
  }
}

/** Claims and sends in one go (the sender is the caller): background work and tests only, never a request. */
export async function announceBirthdays(
  people: UserItem[],
  date: string,
  audience: Audience = activeMembers,
): Promise<void> {
  await claimAnnouncements(people, date);
  const open = (
    await BirthdayAnnouncement.getMany(
      people.map((p) => ({ date, userId: p.id })),
      { consistent: true },
    )
  ).filter((c): c is AnnouncementItem => !!c && !c.doneAt);
  await addToDay(date, open);
  const day = await BirthdayDay.get({ date }, { consistent: true });
  if (day) await sendDay(date, day.claimId, audience);
}

/**
 * The company fan-out's birthday filters: claims not done yet, and days not done yet. Progress writes
 * match too (the filter cannot compare images); the consumer skips every record but a new claim, a new
 * day or round, or a take-over.
 */
export const announcementFilters: Record<string, unknown>[] = [BirthdayAnnouncement.name, BirthdayDay.name].map(
  (name) => ({
    eventName: ['INSERT', 'MODIFY'],
    dynamodb: { NewImage: { entity: { S: [name] }, doneAt: { S: [{ exists: false }] } } },
  }),
);

/**
 * Adds the people of the claims in these stream records to their day, then sends each day (or round)
 * begun or taken over. A claim or day of another date than today is left alone: the notification is
 * about today's birthdays, and a late record must not announce yesterday's.
 */
export async function announcementFanOut(
  records: DynamoDBRecord[],
  { audience = activeMembers, now = new Date() }: { audience?: Audience; now?: Date } = {},
): Promise<void> {
  const today = companyDate(now);
  const claims: AnnouncementItem[] = [];
  const days = new Map<string, string>();
  for (const r of records) {
    const change = toItemChange(r);
    const item = change.newImage;
    const before = change.oldImage as { claimId?: string } | undefined;
    if (BirthdayAnnouncement.is(item) && !item.doneAt && item.date === today && before?.claimId !== item.claimId)
      claims.push(item);
    if (BirthdayDay.is(item) && !item.doneAt && item.date === today && before?.claimId !== item.claimId)
      days.set(item.date, item.claimId);
  }
  await addToDay(today, claims);
  for (const [date, claimId] of days) {
    try {
      await sendDay(date, claimId, audience);
    } catch (err) {
      logger.error('birthday notifications interrupted', { date, error: (err as Error).message });
      throw err; // the stream retries the record; the pass goes on from its recorded progress
    }
  }
}
