import type { ScheduledEvent } from 'aws-lambda';
import { sweepBirthdays } from '../../shared/calendar/birthdays/today.ts';
import { loadSecrets } from '../../shared/config/secrets.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * EventBridge schedule, shortly after midnight in the company's timezone (shared/api/background.ts):
 * announces today's birthdays unless a `GET /birthdays/today` did first. Also resumes an announcement
 * whose sender stopped half way.
 */
export const handler = async (_event: ScheduledEvent): Promise<void> => {
  await loadSecrets(); // deployed: the secrets this function is granted (shared/config/secrets.ts)
  const result = await sweepBirthdays();
  logger.info('birthday sweep', result);
};
