import { randomUUID } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { page as pageOf } from '../../db/paging.ts';
import { isConditionFailure, type TransactItem, write } from '../../db/table.ts';
import { toItemChange } from '../../live/change-feed.ts';
import { NOTIFICATIONS_PER_TRANSACTION, transactNotifications } from '../../notifications/notify-many.ts';
import { logger } from '../../observability/logger.ts';
import { User } from '../../people/entities.ts';
import { getUser, type UserItem } from '../../people/users.ts';
import { inPool } from '../../util/in-pool.ts';
import { type AnnouncementItem, BirthdayAnnouncement } from '../entities.ts';
import { companyDate } from '../time.ts';

/**
 * The birthday notification: once per birthday person per company day, to every active person but
 * them who existed when it went out. Whichever comes first, the first `GET /birthdays/today` of the
 * day or the birthday sweep, only claims it (one write per birthday person): recording a
 * notification for every member is work that grows with the company, which no request may do. The
 * claim item reaches the birthday fan-out consumer through the table's stream
 * (`announcementFanOut`), which sends.
 *
 * Never twice: a conditional put of the (day, person) announcement claim decides who sends. The
 * sender pages through the members index and records each page of notifications in one transaction
 * together with the claim's progress (the page cursor and a step number it is conditional on), so a
 * page is recorded exactly once even if the sender dies and another takes over a stale claim.
 */
/** A claim whose sender has not recorded a page for this long is taken over. */
const STALE_MS = 2 * 60 * 1000;
const KEEP_DAYS = 40;
/** Birthday people announced at once. */
const ANNOUNCE_CONCURRENCY = 4;

const preview = (person: UserItem) => `It's ${person.name}'s birthday today. Send them your wishes!`;
/** Where the preview holds the person's name (NotificationContent.names). */
const PREVIEW_NAME_AT = "It's ".length;

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
    ttl: Math.floor(now.getTime() / 1000) + KEEP_DAYS * 24 * 3600,
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
 * Takes over a claim whose sender stopped before finishing (conditional on nobody else doing so first),
 * going on from the progress it has now.
 */
async function takeOver(stale: AnnouncementItem): Promise<AnnouncementItem | null> {
  try {
    const taken = await write(
      BirthdayAnnouncement.update(stale, {
        UpdateExpression: 'SET claimId = :new, heartbeatAt = :now',
        ConditionExpression: 'claimId = :old AND attribute_not_exists(doneAt)',
        ExpressionAttributeValues: { ':new': randomUUID(), ':old': stale.claimId, ':now': new Date().toISOString() },
      }),
    );
    return BirthdayAnnouncement.is(taken) ? taken : null;
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}

/**
 * Who hears about a birthday: the members who joined at or before the cutoff, but the birthday
 * person, a page at a time (tests pass their own).
 */
export interface Audience {
  page(q: {
    cutoff: string;
    excludeId: string;
    cursor: string | null;
    limit: number;
  }): Promise<{ ids: string[]; nextCursor: string | null }>;
}

/** Every active member, from the members index (sk `<joinedAt>#<id>`; '$' follows '#', so `< cutoff$` keeps joinedAt <= cutoff). */
export const activeMembers: Audience = {
  async page({ cutoff, excludeId, cursor, limit }) {
    const page = await User.query(
      {
        index: 'members',
        key: {},
        skBefore: `${cutoff}$`,
        filter: {
          FilterExpression: '#status = :active AND id <> :person',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':active': 'active', ':person': excludeId },
        },
      },
      pageOf({ limit, cursor: cursor ?? undefined }),
    );
    return { ids: page.items.map((u) => u.id), nextCursor: page.nextCursor };
  },
};

/**
 * Records the notifications page by page; stops quietly when another sender took the claim over.
 * The next page is read while the current one is written (its cursor is known as soon as it is read).
 */
async function send(a: AnnouncementItem, person: UserItem, audience: Audience): Promise<void> {
  const read = (cursor: string | null) =>
    audience.page({ cutoff: a.cutoff, excludeId: person.id, cursor, limit: NOTIFICATIONS_PER_TRANSACTION });
  let step = a.step;
  let next = read(a.cursor);
  for (;;) {
    const page = await next;
    if (page.nextCursor) {
      next = read(page.nextCursor);
      // Awaited (and its error thrown) on the next turn; if this turn stops first, say so rather than leave it unhandled.
      next.catch((err) => logger.warn('birthday announcement: a prefetched page was not used', { error: err }));
    }
    const done = page.nextCursor === null;
    const progress: TransactItem = BirthdayAnnouncement.update(a, {
      UpdateExpression: `SET #step = :next, #cursor = :cursor, heartbeatAt = :now, #sent = #sent + :n${done ? ', doneAt = :now' : ''}`,
      ConditionExpression: 'claimId = :me AND #step = :step',
      ExpressionAttributeNames: { '#step': 'step', '#cursor': 'cursor', '#sent': 'sent' },
      ExpressionAttributeValues: {
        ':next': step + 1,
        ':cursor': page.nextCursor,
        ':now': new Date().toISOString(),
        ':n': page.ids.length,
        ':me': a.claimId,
        ':step': step,
      },
    });
    const notes = page.ids.map((recipientId) => ({
      recipientId,
      kind: 'birthday' as const,
      actorId: person.id,
      preview: preview(person),
      names: [{ id: person.id, at: PREVIEW_NAME_AT, length: person.name.length }],
    }));
    try {
      await transactNotifications(notes, [progress]);
    } catch (err) {
      if (isConditionFailure(err)) return; // taken over: the new sender goes on from the recorded step
      throw err;
    }
    if (done) return;
    step += 1;
  }
}

/**
 * Claims the announcement of each of these birthday people that nobody claimed yet, and takes over
 * those whose sender stalled: at most one write per birthday person, whatever the company's size.
 * Answers the claims taken (a new or taken-over claim reaches `announcementFanOut` through the
 * table's stream). Costs one BatchGet of the claims when all are done already.
 */
export async function claimAnnouncements(people: UserItem[], date: string): Promise<AnnouncementItem[]> {
  if (people.length === 0) return [];
  const found = await BirthdayAnnouncement.getMany(
    people.map((p) => ({ date, userId: p.id })),
    { consistent: true },
  );
  const claims = new Map(people.map((p, i) => [p.id, found[i]]));
  const mine: AnnouncementItem[] = [];
  await inPool(people, ANNOUNCE_CONCURRENCY, async (person) => {
    const existing = claims.get(person.id);
    if (existing?.doneAt) return;
    const claimed = !existing
      ? await claim(person, date)
      : Date.now() - Date.parse(existing.heartbeatAt) > STALE_MS
        ? await takeOver(existing)
        : null;
    if (claimed) mine.push(claimed);
  });
  return mine;
}

/** Sends one claimed announcement; an error leaves the claim unfinished, to be taken over once stale. */
export async function sendAnnouncement(a: AnnouncementItem, audience: Audience = activeMembers): Promise<void> {
  const person = await getUser(a.userId);
  if (!person) return;
  try {
    await send(a, person, audience);
  } catch (err) {
    // The claim stays unfinished; the next reader or sweep after it goes stale resumes it.
    logger.error('birthday announcement interrupted', {
      userId: a.userId,
      date: a.date,
      error: (err as Error).message,
    });
  }
}

/**
 * Claims and sends in one go (the sender is the caller): background work and tests only, never a
 * request.
 */
export async function announceBirthdays(
  people: UserItem[],
  date: string,
  audience: Audience = activeMembers,
): Promise<void> {
  const mine = await claimAnnouncements(people, date);
  await inPool(mine, ANNOUNCE_CONCURRENCY, (a) => sendAnnouncement(a, audience));
}

/**
 * The birthday fan-out consumer's filter: claims not done yet. Progress writes match too (the
 * filter cannot compare images); the consumer skips every record but a new claim or a take-over.
 */
export const announcementFilters: Record<string, unknown>[] = [
  {
    eventName: ['INSERT', 'MODIFY'],
    dynamodb: {
      NewImage: { entity: { S: [BirthdayAnnouncement.name] }, doneAt: { S: [{ exists: false }] } },
    },
  },
];

/**
 * Sends each announcement claimed (or taken over) in these stream records. A claim of another day
 * than today is left alone: the notification is about today's birthday, and a late record must not
 * announce yesterday's.
 */
export async function announcementFanOut(
  records: DynamoDBRecord[],
  { audience = activeMembers, now = new Date() }: { audience?: Audience; now?: Date } = {},
): Promise<void> {
  const today = companyDate(now);
  const claims = records.flatMap((r) => {
    const change = toItemChange(r);
    const a = change.newImage;
    if (!BirthdayAnnouncement.is(a) || a.doneAt || a.date !== today) return [];
    const before = change.oldImage;
    return BirthdayAnnouncement.is(before) && before.claimId === a.claimId ? [] : [a];
  });
  await inPool(claims, ANNOUNCE_CONCURRENCY, (a) => sendAnnouncement(a, audience));
}
