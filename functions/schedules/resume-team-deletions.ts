import type { ScheduledEvent } from 'aws-lambda';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';
import { resumeTeamDeletions } from '../../shared/people/team-deletion.ts';

/**
 * EventBridge schedule (shared/api/background.ts): completes team deletions whose clearing stopped
 * (shared/people/team-deletion.ts).
 */
export const handler = backgroundHandler('teams', async (_event: ScheduledEvent, context): Promise<void> => {
  const resumed = await resumeTeamDeletions({ stop: () => context.getRemainingTimeInMillis() < 20_000 });
  if (resumed) logger.info('team deletions resumed', { resumed });
});
