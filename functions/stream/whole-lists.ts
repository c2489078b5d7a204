import type { DynamoDBStreamEvent } from 'aws-lambda';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { foldChangedLists } from '../../shared/whole-lists/consumer.ts';

/**
 * Stream consumer (filters in shared/whole-lists/consumer.ts): folds the whole lists' pending changes
 * into their documents in the bucket (shared/documents/whole-list.ts).
 */
export const handler = backgroundHandler('documents', async (event: DynamoDBStreamEvent): Promise<void> => {
  await foldChangedLists(event.Records);
});
