import type { DynamoDBStreamEvent } from 'aws-lambda';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { surveyFanOut } from '../../shared/surveys/fan-out.ts';

/** Stream consumer (filters in shared/surveys/fan-out.ts): freezes an opened run's audience and tells its people. */
export const handler = backgroundHandler('surveys', async (event: DynamoDBStreamEvent): Promise<void> => {
  await surveyFanOut(event.Records);
});
