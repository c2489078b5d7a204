import { sendDueMustReadReminders } from '../../shared/feed/must-read-reminders.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * Every 5 minutes (EventBridge): reminds the people who still owe a must-read announcement before its
 * dueAt (shared/feed/must-read-reminders.ts). Logs a count only.
 */
export const handler = backgroundHandler('feed', async (): Promise<void> => {
  const reminded = await sendDueMustReadReminders();
  if (reminded) logger.info('must-read reminders sent', { reminded });
});
