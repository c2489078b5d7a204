import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { env } from '../../shared/config/env.ts';
import { db } from '../../shared/db/client.ts';
import { recordChanges } from '../../shared/live/change-feed.ts';
import { readEventsAfter, readHead, readReplica } from '../../shared/live/event-log.ts';
import { changeMappers } from '../../shared/registry/change-mappers.ts';

let sequence = Date.now() * 1000;
/** A stream record of a notification item (its mapper emits one notification.created). */
function notificationRecord(recipientId: string): { record: DynamoDBRecord; id: string } {
  const id = randomUUID();
  const item = {
    pk: `NOTIF#${recipientId}`,
    sk: `N#${id}`,
    entity: 'Notification',
    id,
    recipientId,
    kind: 'comment',
    actorId: null,
    createdAt: new Date().toISOString(),
  };
  return {
    id,
    record: {
      eventID: randomUUID().replaceAll('-', ''),
      eventName: 'INSERT',
      dynamodb: {
        SequenceNumber: String(sequence++),
        ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
        Keys: marshall({ pk: item.pk, sk: item.sk }) as never,
        NewImage: marshall(item, { removeUndefinedValues: true }) as never,
      },
    },
  };
}

/** A record whose item has no mapper: no events. */
const silentRecord = (): DynamoDBRecord => ({
  eventID: randomUUID().replaceAll('-', ''),
  eventName: 'INSERT',
  dynamodb: {
    SequenceNumber: String(sequence++),
    Keys: marshall({ pk: 'X#1', sk: 'X' }) as never,
    NewImage: marshall({ pk: 'X#1', sk: 'X', entity: 'NothingMapped' }) as never,
  },
});

/** Makes the next BatchWrite of event items fail, as a throttled or unreachable table would. */
function failNextEventWrite() {
  let armed = true;
  db().middlewareStack.add(
    (next) => async (args: any) => {
      if (armed && args.input?.RequestItems && JSON.stringify(args.input).includes('LiveEvent')) {
        armed = false;
        throw Object.assign(new Error('injected failure'), { name: 'ProvisionedThroughputExceededException' });
      }
      return next(args);
    },
    { step: 'initialize', name: 'failNextEventWrite' },
  );
}
afterEach(() => {
  db().middlewareStack.remove('failNextEventWrite');
});

const eventsFor = async (epoch: string, after: number, recipientId: string) =>
  (await readEventsAfter(epoch, after, 1000, true)).filter((e) => e.aud === recipientId);

describe('change-feed consumer under retries', () => {
  it('reports the first record with events as failed, and a retry from it appends each event once, in order', async () => {
    const recipient = `test-retry-${randomUUID()}`;
    const before = await readHead(true);
    const a = notificationRecord(recipient);
    const b = notificationRecord(recipient);
    const batch = [silentRecord(), a.record, b.record];

    failNextEventWrite();
    const failed = await recordChanges(batch, changeMappers);
    expect(failed.batchItemFailures).toEqual([{ itemIdentifier: a.record.dynamodb!.SequenceNumber }]);

    // Lambda retries from the failed record; then once more, as a bisected or duplicated delivery would.
    expect(await recordChanges(batch.slice(1), changeMappers)).toEqual({ batchItemFailures: [] });
    const once = await eventsFor(before.epoch, before.seq, recipient);
    expect(await recordChanges(batch.slice(1), changeMappers)).toEqual({ batchItemFailures: [] });
    const twice = await eventsFor(before.epoch, before.seq, recipient);

    expect(once.map((e) => e.payload.notificationId)).toEqual([a.id, b.id]);
    expect(twice).toEqual(once);
    expect(once[1].seq).toBeGreaterThan(once[0].seq);
  });

  it('copies the head and the newest events to every replica', async () => {
    const recipient = `test-replica-${randomUUID()}`;
    const n = notificationRecord(recipient);
    // Read the log from the head this test started at: a long run holds more than a page of events.
    const before = await readHead(true);
    await recordChanges([n.record], changeMappers);
    const { epoch } = before;
    const [stored] = await eventsFor(epoch, before.seq, recipient);
    // Other test files share the table: one may start a new epoch (head first, then the replicas)
    // while this reads. The replicas then converge on that epoch; ours is checked while it lasts.
    await vi.waitFor(
      async () => {
        const current = await readHead(true);
        for (let r = 0; r < env.liveReplicas; r++) {
          const replica = await readReplica(r);
          expect(replica.epoch).toBe(current.epoch);
          if (current.epoch !== epoch) continue;
          expect(replica.seq).toBeGreaterThanOrEqual(stored.seq);
          // Inline unless newer events (other tests') have pushed it out since.
          const inline = replica.events.find((e) => e.seq === stored.seq);
          if (inline) expect(inline).toEqual(stored);
          else expect(replica.events[0].seq).toBeGreaterThan(stored.seq);
        }
      },
      { timeout: 5_000, interval: 100 },
    );
  });
});
