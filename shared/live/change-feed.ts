import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { ANON_ATTRIBUTE } from '../db/keys.ts';
import { logger } from '../observability/logger.ts';
import type { ChangeEventDraft, ChangeMapper, ItemChange } from './change-events.ts';
import { appendEvents, type LiveEvent } from './event-log.ts';
import { changeMappers } from './mappers.ts';

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

/** A stream record as the mappers see it: plain images and the time of the change. */
export function toItemChange(record: DynamoDBRecord): ItemChange {
  const seconds = record.dynamodb?.ApproximateCreationDateTime;
  return {
    eventName: record.eventName as ItemChange['eventName'],
    oldImage: toPlain(record.dynamodb?.OldImage as Image),
    newImage: toPlain(record.dynamodb?.NewImage as Image),
    at: seconds ? new Date(seconds * 1000) : new Date(),
  };
}

/**
 * The live-update events one item change means: the mapper registered for its `entity`, or none.
 * Anonymous items are dropped here too, should the event-source filter ever let one through; a
 * mapper that throws loses its own events only (logged), never the batch.
 */
export function eventsOf(
  change: ItemChange,
  mappers: Record<string, ChangeMapper> = changeMappers,
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

/**
 * The change-feed consumer's work for one batch of stream records (in stream order): map every item
 * change and append the events to the event log in that order.
 */
export async function recordChanges(records: DynamoDBRecord[]): Promise<LiveEvent[]> {
  const drafts = records.flatMap((r) => {
    try {
      return eventsOf(toItemChange(r));
    } catch (err) {
      // An unreadable record loses its own events only; a retried batch would fail the same way.
      logger.error('unreadable stream record', { eventName: r.eventName, error: err as Error });
      return [];
    }
  });
  return appendEvents(drafts);
}
