import type { DynamoDBStreamEvent } from 'aws-lambda';
import { fanOut } from '../../shared/feed/fan-out.ts';
import { closeReportsOfRemoved } from '../../shared/moderation/cleanup.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';

/**
 * The feed's stream consumer (filters in shared/feed/fan-out.ts and shared/moderation/cleanup.ts):
 * personal notices (replies, closed polls), renditions, clean-up, a deleted item's report closed.
 */
export const handler = backgroundHandler('feed', async (event: DynamoDBStreamEvent): Promise<void> => {
  await fanOut(event.Records);
  await closeReportsOfRemoved(event.Records);
});
