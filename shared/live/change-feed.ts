import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { ANON_ATTRIBUTE } from '../db/table-definition.ts';
import { logger } from '../observability/logger.ts';
import type { ChangeEventDraft, ChangeMapper, ItemChange } from './change-events.ts';
import { appendRecords } from './event-log.ts';

type Image = Record<string, AttributeValue> | undefined;

/** DynamoDB Local's stream gives an empty map as `{}` (no type key): read it as the empty map it is. */
function repair(value: AttributeValue): AttributeValue {
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.M) return { M: Object.fromEntries(Object.entries(value.M).map(([k, v]) => [k, repair(v)])) };
  if (value.L) return { L: value.L.map(repair) };
  return value;
}

const toPlain = (image: Image) =>
  image
    ? unmarshall(Object.fromEntries(Object.entries(image).map(([k, v]) => [k, repair(v)])), { wrapNumbers: false })
    : undefined;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** Clock difference tolerated between the writer and the consumer when telling a deadline from a change. */
const SKEW_MS = 5_000;

/**
 * When the change happened, from the item itself: the latest instant this change wrote (`createdAt`,
 * `updatedAt`, `readAt`, `lastSeenAt`, `deletedAt`...), to the millisecond. Instants it moved into
 * the future are deadlines (`onlineUntil`, `closesAt`), not the time of the change. A change that
 * wrote none (a deletion) takes the stream record's time, which DynamoDB gives to the second and
 * DynamoDB Local to the minute, never earlier than the item's own latest instant.
 */
export function changeTime(
  oldImage: Record<string, any> | undefined,
  newImage: Record<string, any> | undefined,
  recordSeconds: number | undefined,
  now = Date.now(),
): Date {
  const instants = (image: Record<string, any> | undefined, changedOnly: boolean) =>
    Object.entries(image ?? {}).flatMap(([k, v]) =>
      typeof v === 'string' && ISO_INSTANT.test(v) && !(changedOnly && oldImage?.[k] === v) ? [Date.parse(v)] : [],
    );
  const written = instants(newImage, true).filter((t) => t <= now + SKEW_MS);
  if (written.length > 0) return new Date(Math.max(...written));
  if (recordSeconds === undefined) return new Date(now);
  const latest = instants(newImage ?? oldImage, false).filter((t) => t <= now + SKEW_MS);
  return new Date(Math.max(recordSeconds * 1000, ...latest));
}

/** A stream record as the mappers see it: plain images and the time of the change. */
export function toItemChange(record: DynamoDBRecord): ItemChange {
  const oldImage = toPlain(record.dynamodb?.OldImage as Image);
  const newImage = toPlain(record.dynamodb?.NewImage as Image);
  return {
    eventName: record.eventName as ItemChange['eventName'],
    oldImage,
    newImage,
    at: changeTime(oldImage, newImage, record.dynamodb?.ApproximateCreationDateTime),
  };
}

/**
 * The live-update events one item change means: the mapper of `mappers` (the registry,
 * shared/registry/change-mappers.ts) for its `entity`, or none.
 * Anonymous items are dropped here too, should the event-source filter ever let one through; a
 * mapper that throws loses its own events only (logged), never the batch.
 */
export function eventsOf(
  change: ItemChange,
  mappers: Readonly<Record<string, ChangeMapper>>,
): (ChangeEventDraft & { at: Date })[] {
  if (change.newImage?.[ANON_ATTRIBUTE] || change.oldImage?.[ANON_ATTRIBUTE]) return [];
  const entity = (change.newImage?.entity ?? change.oldImage?.entity) as string | undefined;
  const mapper = entity ? mappers[entity] : undefined;
  if (!mapper) return [];
  try {
    return mapper(change).map((d) => ({ ...d, at: change.at }));
  } catch (err) {
    logger.error('change mapper failed', { entity, eventName: change.eventName, error: err as Error });
    return [];
  }
}

/** Lambda's partial batch response (`ReportBatchItemFailures`): stream records by sequence number. */
export interface BatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

/**
 * The change-feed consumer's work for one batch of stream records (in stream order): map every item
 * change and append the events to the event log in that order, idempotently per record (its
 * `eventID`), so a retried batch duplicates nothing. When appending fails, the answer names the
 * first record that has events: Lambda (and the local poller) retries from it, records before it
 * being done. The rest of the batch is never processed past a failure, so events keep stream order
 * (a later presence change never lands before an earlier one).
 */
export async function recordChanges(
  records: DynamoDBRecord[],
  mappers: Readonly<Record<string, ChangeMapper>>,
): Promise<BatchResponse> {
  const appended = records.map((r) => {
    let drafts: ReturnType<typeof eventsOf> = [];
    try {
      drafts = eventsOf(toItemChange(r), mappers);
    } catch (err) {
      // An unreadable record loses its own events only; a retried batch would fail the same way.
      logger.error('unreadable stream record', { eventName: r.eventName, error: err as Error });
    }
    return { record: r, recordId: r.eventID, drafts };
  });
  try {
    await appendRecords(appended);
    return { batchItemFailures: [] };
  } catch (err) {
    const first = appended.find((a) => a.drafts.length > 0)?.record ?? records[0];
    logger.error('change feed batch failed; retried from its first record with events', {
      records: records.length,
      error: err as Error,
    });
    return { batchItemFailures: [{ itemIdentifier: first.dynamodb?.SequenceNumber ?? '' }] };
  }
}
