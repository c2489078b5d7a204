import type { DynamoDBStreamEvent } from 'aws-lambda';
import { loadSecrets } from '../../shared/config/secrets.ts';
import { recordChanges } from '../../shared/live/change-feed.ts';

/**
 * The change-feed consumer: the only reader of the table's DynamoDB stream (an event source mapping
 * with the filters of `shared/live/stream-filters.ts`; locally the runtime's stream poller). It turns
 * item changes into live-update events and appends them to the event log that stream connections poll.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  await loadSecrets(); // deployed: the secrets this function is granted (shared/config/secrets.ts)
  await recordChanges(event.Records);
};
