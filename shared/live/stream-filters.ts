import { ANON_ATTRIBUTE } from '../db/table-definition.ts';
import { livePartitions, StreamLeases } from './entities.ts';

/**
 * The change-feed consumer's event-source filter (Lambda filter criteria; the local stream poller
 * applies the same patterns with `infra/local/filter-pattern.ts`). One pattern, so a record passes
 * only when all of it holds:
 * - neither image carries `anon` (grievance items never reach the consumer). Grievance
 *   notifications carry nothing of the kind, so they pass like every notification and their mapper
 *   drops them after unsealing (shared/notifications/change-events.ts). `exists` works only on leaf nodes, so
 *   the pattern names the DynamoDB type (`anon` is always written as a boolean, `{ BOOL: true }`); `exists: false` also
 *   holds when the image itself is absent (an INSERT has no OldImage, a REMOVE no NewImage);
 * - the item is not the event log's own (partition `LIVE` and its replicas `LIVE#<n>`, listed one by
 *   one: Lambda's `anything-but` takes a list of values): the consumer's writes would otherwise
 *   come back to it. Filtering on `Keys` works for every event name, REMOVE included;
 * - the item is not a person's stream leases (renewed by every open stream with each ping: they
 *   would invoke the consumer constantly for nothing).
 */
const noAnon = { [ANON_ATTRIBUTE]: { BOOL: [{ exists: false }] } };

export const changeFeedFilters: Record<string, unknown>[] = [
  {
    dynamodb: {
      Keys: {
        pk: { S: [{ 'anything-but': livePartitions() }] },
        sk: { S: [{ 'anything-but': [StreamLeases.key({ userId: '' }).sk] }] },
      },
      NewImage: noAnon,
      OldImage: noAnon,
    },
  },
];
