import type { DynamoDBStreamEvent } from 'aws-lambda';
import { companyFanOut } from '../../shared/feed/company-fan-out.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';

/** Stream consumer (filters in shared/feed/company-fan-out.ts): announcements and birthdays to everybody. */
export const handler = backgroundHandler('feed', async (event: DynamoDBStreamEvent): Promise<void> => {
  await companyFanOut(event.Records);
});
