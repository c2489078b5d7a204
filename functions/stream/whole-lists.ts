import type { DynamoDBStreamEvent } from 'aws-lambda';
import { foldChangedLists } from '../../shared/documents/consumer.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';

/**
 * Stream consumer (filters in shared/documents/consumer.ts): folds the whole lists' pending changes
 * into their documents in the bucket (shared/documents/whole-list.ts).
 */
export const handler = backgroundHandler('documents', async (event: DynamoDBStreamEvent): Promise<void> => {
  await foldChangedLists(event.Records);
});
