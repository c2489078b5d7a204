import type { ScheduledEvent } from 'aws-lambda';
import { env } from '../../shared/config/env.ts';
import { applyPeopleRetention } from '../../shared/data-rights/retention.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';

/** EventBridge schedule (shared/api/background.ts): erasure of people deactivated longer than PEOPLE_RETENTION_DAYS. */
export const handler = backgroundHandler('members', async (_event: ScheduledEvent): Promise<void> => {
  const { started } = await applyPeopleRetention(env.peopleRetentionDays);
  if (started) logger.info('people retention: erasures started', { started });
});
