import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';
import { sweepPresence } from '../../shared/presence/sweep.ts';

/** Every minute (EventBridge): records presence timeouts so `presence.updated` fires for them. */
export const handler = backgroundHandler('presence', async (): Promise<void> => {
  const changed = await sweepPresence();
  if (changed) logger.info('presence sweep', { changed });
});
