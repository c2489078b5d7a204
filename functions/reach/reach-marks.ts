import type { DynamoDBStreamEvent } from 'aws-lambda';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { recordActivity } from '../../shared/reach/activity.ts';

/** Stream consumer (filters in shared/reach/activity.ts): first reactions, comments and acknowledgements counted. */
export const handler = backgroundHandler('reach', async (event: DynamoDBStreamEvent): Promise<void> => {
  await recordActivity(event.Records);
});
