import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';
import { runSurveySchedule } from '../../shared/surveys/schedule.ts';

/**
 * Every minute (EventBridge): opens surveys whose time has come (a recurring one's next run by itself),
 * closes those whose run ended, and sends the reminders due (shared/surveys/schedule.ts). Logs counts only.
 */
export const handler = backgroundHandler('surveys', async (): Promise<void> => {
  const done = await runSurveySchedule();
  if (done.opened || done.closed || done.reminded) logger.info('survey schedule', done);
});
