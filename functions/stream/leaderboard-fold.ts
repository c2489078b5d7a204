import type { DynamoDBStreamEvent } from 'aws-lambda';
import { foldScoreChanges } from '../../shared/feed/leaderboard.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';

/**
 * Stream consumer (filters in shared/feed/leaderboard.ts): folds every score change into the week's and
 * month's top lists, so a request reads a list and a few changes, never the period's days.
 */
export const handler = backgroundHandler('feed', async (event: DynamoDBStreamEvent): Promise<void> => {
  await foldScoreChanges(event.Records);
});
