import { sendDueReminders } from '../../shared/grievances/reminders.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * Every 15 minutes (EventBridge): reminds the super admins of grievance deadlines due soon or missed
 * (shared/grievances/reminders.ts). Logs a count only: nothing about which grievance.
 */
export const handler = async (): Promise<void> => {
  const sent = await sendDueReminders();
  if (sent) logger.info('grievance reminders sent', { sent });
};
