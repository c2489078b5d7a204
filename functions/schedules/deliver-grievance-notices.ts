import { deliverGrievanceNotices } from '../../shared/grievances/notice-delivery.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * Every minute (EventBridge; every second locally): delivers the grievance notifications that are due,
 * in batches apart from the events that caused them (docs/data-model.md, Grievances). Logs a count
 * only: nothing about whom or which grievance.
 */
export const handler = async (): Promise<void> => {
  const delivered = await deliverGrievanceNotices();
  if (delivered) logger.info('grievance notices delivered', { delivered });
};
