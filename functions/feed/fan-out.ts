import type { DynamoDBStreamEvent } from 'aws-lambda';
import { fanOut } from '../../shared/feed/fan-out.ts';

/** The feed's stream consumer (filters in shared/feed/fan-out.ts): announcements to everybody, renditions. */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  await fanOut(event.Records);
};
