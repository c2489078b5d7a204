import { isConditionFailure, type TransactItem, transact } from '../../db/table.ts';
import { Meeting, type MeetingItem, MeetingSeat } from './entities.ts';
import { quotaRefusalOf } from './mail-quota.ts';

/**
 * How meetings are written. The meeting item is the truth; seats (one per internal participant) only
 * index it in that person's calendar. Readers always go back to the meeting item, so a seat that lags
 * behind can at worst be skipped, never show something wrong.
 */
const TRANSACTION_MAX = 100;

export const getMeeting = (meetingId: string) => Meeting.get({ id: meetingId }, { consistent: true });

/**
 * Seat writes for a meeting at its current version: every participant's seat (re)written with the
 * meeting's times, removed participants' seats deleted. Each is conditional on not being newer, so a
 * slow writer of an older version never overwrites a newer one.
 */
export function seatWrites(m: MeetingItem, removedIds: string[]): TransactItem[] {
  const notNewer = {
    ConditionExpression: 'attribute_not_exists(pk) OR version < :v',
    ExpressionAttributeValues: { ':v': m.version },
  };
  const puts = m.participantIds.map((userId) =>
    MeetingSeat.put(
      { meetingId: m.id, userId, startUtc: m.startUtc, endUtc: m.endUtc, version: m.version },
      { ...notNewer },
    ),
  );
  const deletes = removedIds.map((userId) => MeetingSeat.remove({ meetingId: m.id, userId }, { ...notNewer }));
  return [...puts, ...deletes];
}

/**
 * Commits the meeting write with its seat writes: one transaction when they fit (up to 99 seats),
 * otherwise the meeting and the first seats together, then the remaining seats. A condition failure
 * on the meeting write propagates; on the remaining seats it only means a newer version wrote them.
 * `mailQuota`, when the write mails external addresses, books them in the same transaction
 * (mail-quota.ts): past the bound nothing is written and the answer is a 429.
 */
export async function commitMeeting(
  meetingWrite: TransactItem,
  seats: TransactItem[],
  mailQuota: TransactItem | null = null,
  now = new Date(),
): Promise<void> {
  const together = mailQuota ? [meetingWrite, mailQuota] : [meetingWrite];
  const first = seats.slice(0, TRANSACTION_MAX - together.length);
  try {
    await transact([...together, ...first]);
  } catch (err) {
    const refused = mailQuota ? quotaRefusalOf(err, 1, now) : null;
    throw refused ?? err;
  }
  for (let i = first.length; i < seats.length; i += TRANSACTION_MAX) {
    await transact(seats.slice(i, i + TRANSACTION_MAX)).catch((err) => {
      if (!isConditionFailure(err)) throw err;
    });
  }
}
