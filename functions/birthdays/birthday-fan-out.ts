import type { DynamoDBStreamEvent } from 'aws-lambda';
import { announcementFanOut } from '../../shared/calendar/birthdays/announce.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';

/** Stream consumer (filters in shared/calendar/birthdays/announce.ts): sends claimed birthday announcements. */
export const handler = backgroundHandler('birthdays', async (event: DynamoDBStreamEvent): Promise<void> => {
  await announcementFanOut(event.Records);
});
