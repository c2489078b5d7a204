import type { ScheduledEvent } from 'aws-lambda';
import { sweepBirthdays } from '../../shared/calendar/birthdays/today.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * EventBridge schedule, shortly after midnight in the company's timezone (shared/api/background.ts):
 * announces today's birthdays unless a `GET /birthdays/today` did first. Also resumes an announcement
 * whose sender stopped half way.
 */
export const handler = backgroundHandler('birthdays', async (_event: ScheduledEvent): Promise<void> => {
  const result = await sweepBirthdays();
  logger.info('birthday sweep', result);
});
