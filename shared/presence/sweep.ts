import { page } from '../db/paging.ts';
import { isConditionFailure, write } from '../db/table.ts';
import { Presence, presenceFields } from './entities.ts';

const PAGE = 100;

/**
 * The presence sweep (every minute): finds the people whose announced presence is due to change
 * (gsi6 `PRESENCE_DUE`, due time ≤ now; nobody else is read, so it costs O(people who changed)) and
 * records the new value, so `presence.updated` fires when someone times out too. Each write is
 * conditioned on the version read: a heartbeat that raced it wins and has already written its own
 * state. Idempotent: a second run finds nothing due. Answers how many people changed.
 */
export async function sweepPresence(now = Date.now()): Promise<number> {
  let changed = 0;
  let cursor: string | undefined;
  do {
    const found = await Presence.query({ index: 'due', key: {}, skBetween: [0, now] }, page({ limit: PAGE, cursor }));
    for (const due of found.items) {
      const next = presenceFields(due.userId, due, due.version + 1, now);
      try {
        await write(
          Presence.put(next, { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': due.version } }),
        );
        if (next.presence !== due.presence) changed++;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    }
    cursor = found.nextCursor ?? undefined;
  } while (cursor);
  return changed;
}
