import { closeJoinWindows, sendDueMustReadReminders } from '../../shared/feed/must-read-reminders.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * Every 5 minutes (EventBridge): reminds the people who still owe a must-read announcement before its
 * dueAt, and takes the must-reads no longer open to joiners off the joinable index
 * (shared/feed/must-read-reminders.ts). Logs counts only.
 */
export const handler = backgroundHandler('feed', async (): Promise<void> => {
  const reminded = await sendDueMustReadReminders();
  const closed = await closeJoinWindows();
  if (reminded || closed) logger.info('must-read reminders sent', { reminded, closed });
});
