import type { ScheduledEvent } from 'aws-lambda';
import { runDataRightsWork } from '../../shared/data-rights/work.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';

/** EventBridge schedule (shared/api/background.ts): works data exports and erasures (shared/data-rights/work.ts). */
export const handler = backgroundHandler('members', async (_event: ScheduledEvent, context): Promise<void> => {
  const done = await runDataRightsWork({ stop: () => context.getRemainingTimeInMillis() < 60_000 });
  if (done.erasures || done.exports) logger.info('data rights: jobs finished', done);
});
