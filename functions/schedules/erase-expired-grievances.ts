import { eraseExpiredGrievances } from '../../shared/grievances/retention.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * Daily (EventBridge): erases grievances finished longer than GRIEVANCE_RETENTION_DAYS ago, when that
 * is set (shared/grievances/retention.ts). Logs a count only: nothing about which grievance.
 */
export const handler = async (): Promise<void> => {
  const erased = await eraseExpiredGrievances();
  if (erased) logger.info('grievances erased', { erased });
};
