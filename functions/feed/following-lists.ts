import type { DynamoDBStreamEvent } from 'aws-lambda';
import { keepFollowingLists } from '../../shared/feed/following-lists.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';

/** Stream consumer (filters in shared/feed/following-lists.ts): each follower's list of followed people's posts. */
export const handler = backgroundHandler('feed', async (event: DynamoDBStreamEvent): Promise<void> => {
  await keepFollowingLists(event.Records);
});
