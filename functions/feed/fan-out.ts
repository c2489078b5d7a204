import type { DynamoDBStreamEvent } from 'aws-lambda';
import { loadSecrets } from '../../shared/config/secrets.ts';
import { fanOut } from '../../shared/feed/fan-out.ts';

/** The feed's stream consumer (filters in shared/feed/fan-out.ts): announcements to everybody, renditions. */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  await loadSecrets(); // deployed: the secrets this function is granted (shared/config/secrets.ts)
  await fanOut(event.Records);
};
