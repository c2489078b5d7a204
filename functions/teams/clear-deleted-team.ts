import type { DynamoDBStreamEvent } from 'aws-lambda';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { teamDeletionFanOut } from '../../shared/people/team-deletion.ts';

/** Stream consumer (filters in shared/people/team-deletion.ts): unassigns a deleted team's people, then removes it. */
export const handler = backgroundHandler('teams', async (event: DynamoDBStreamEvent, context): Promise<void> => {
  // Stops between pages a little before the deadline; the sweep completes the rest (its progress is recorded).
  await teamDeletionFanOut(event.Records, { stop: () => context.getRemainingTimeInMillis() < 20_000 });
});
