import { env } from '../../config/env.ts';
import { failedConditions, retryOnConflict, type TransactItem, write } from '../../db/table.ts';
import { type DomainError, tooMany } from '../../errors.ts';
import { MeetingMailQuota } from './entities.ts';

/*
 * Meeting e-mail to external addresses goes out from the company's own sender, so it is bounded per
 * person and UTC day (`MEETING_EXTERNAL_RECIPIENTS_PER_DAY`, 200 by default): past the bound a change
 * that would mail outsiders is refused with 429 and nothing is saved. Each mailed address counts once
 * per message: a creation counts its external addresses, a change every external address it mails
 * (the kept ones get an update, the added an invitation, the removed a cancellation). Cancelling is
 * never refused, but its e-mails to external addresses count like the others: it mails only as many
 * of them as the day's bound still has room for (`bookWhatIsLeft`), the others are not mailed.
 */

const DAY_MS = 24 * 3600 * 1000;
const dayOf = (now: Date) => now.toISOString().slice(0, 10);
const secondsToNextDay = (now: Date) => Math.max(1, Math.ceil((DAY_MS - (now.getTime() % DAY_MS)) / 1000));

/** External addresses a change mails: everyone who was or is invited, once each. */
export const mailedByChange = (before: string[], after: string[]) => new Set([...before, ...after]).size;

function refusal(limit: number, now: Date): DomainError {
  const seconds = secondsToNextDay(now);
  const hours = Math.ceil(seconds / 3600);
  return tooMany(
    `Meeting e-mail may reach at most ${limit} external addresses per person per day. Try again in ${hours} hour${hours === 1 ? '' : 's'}.`,
    seconds,
  );
}

/**
 * The counter write that books `count` external recipients for `userId` today, to go in the same
 * transaction as the meeting write (its condition fails past the bound); null when nothing is mailed
 * outside. A count that can never fit is refused at once.
 */
export function bookExternalMail(userId: string, count: number, now: Date): TransactItem | null {
  if (count === 0) return null;
  const limit = env.meetingExternalMailPerDay;
  if (count > limit) throw refusal(limit, now);
  return MeetingMailQuota.update(
    { userId, day: dayOf(now) },
    {
      UpdateExpression: 'SET entity = :entity, #ttl = :ttl ADD sent :n',
      ConditionExpression: 'attribute_not_exists(sent) OR sent <= :room',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':entity': MeetingMailQuota.name,
        ':ttl': Math.floor((now.getTime() + 2 * DAY_MS) / 1000),
        ':n': count,
        ':room': limit - count,
      },
    },
  );
}

/** When the booking (at `index` of a cancelled transaction) was what failed: the 429 to answer. */
export function quotaRefusalOf(err: unknown, index: number, now: Date): DomainError | null {
  const failed = failedConditions(err);
  // The meeting write failing too means another change got there first: that one decides again.
  if (!failed.includes(index) || failed.includes(0)) return null;
  return refusal(env.meetingExternalMailPerDay, now);
}

/**
 * Books as many of `count` external recipients as `userId`'s bound still has room for today, and
 * answers how many it booked (0 when the day is full): for mail that goes out whatever the bound (a
 * cancellation), to as many addresses as it allows. A booking that lost a race is read and decided again.
 */
export async function bookWhatIsLeft(userId: string, count: number, now: Date): Promise<number> {
  const limit = env.meetingExternalMailPerDay;
  return retryOnConflict(
    async () => {
      const booked = await MeetingMailQuota.get({ userId, day: dayOf(now) }, { consistent: true });
      const n = Math.min(count, Math.max(0, limit - (booked?.sent ?? 0)));
      const booking = bookExternalMail(userId, n, now);
      if (!booking) return 0;
      await write(booking, { returnValues: 'NONE' });
      return n;
    },
    { fallback: () => 0 },
  );
}
