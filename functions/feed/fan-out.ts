import type { DynamoDBStreamEvent } from 'aws-lambda';
import { fanOut } from '../../shared/feed/fan-out.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';

/** The feed's stream consumer (filters in shared/feed/fan-out.ts): personal notices (replies, closed polls), renditions, clean-up. */
export const handler = backgroundHandler('feed', async (event: DynamoDBStreamEvent): Promise<void> => {
  await fanOut(event.Records);
});
