import type { DynamoDBStreamEvent } from 'aws-lambda';
import { type BatchResponse, recordChanges } from '../../shared/live/change-feed.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { changeMappers } from '../../shared/registry/change-mappers.ts';

/**
 * The change-feed consumer: the only reader of the table's DynamoDB stream (an event source mapping
 * with the filters of `shared/live/stream-filters.ts`; locally the runtime's stream poller). It turns
 * item changes into live-update events and appends them to the event log that stream connections poll.
 * It answers a partial batch response (the mapping has `ReportBatchItemFailures`): Lambda retries
 * from the first record it names.
 */
export const handler = backgroundHandler(
  'stream',
  (event: DynamoDBStreamEvent): Promise<BatchResponse> => recordChanges(event.Records, changeMappers),
);
