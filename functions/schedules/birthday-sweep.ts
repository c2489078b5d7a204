import type { ScheduledEvent } from 'aws-lambda';
import { sweepBirthdays } from '../../shared/calendar/birthdays/today.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * EventBridge schedule, shortly after midnight in the company's timezone (shared/api/background.ts):
 * claims today's birthday announcements unless a `GET /birthdays/today` did first, and takes over one
 * whose sender stopped half way (a claim or the day's pass); the company fan-out consumer sends them.
 */
export const handler = backgroundHandler('birthdays', async (_event: ScheduledEvent): Promise<void> => {
  const result = await sweepBirthdays();
  logger.info('birthday sweep', result);
});
