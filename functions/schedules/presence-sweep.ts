import { loadSecrets } from '../../shared/config/secrets.ts';
import { logger } from '../../shared/observability/logger.ts';
import { sweepPresence } from '../../shared/presence/sweep.ts';

/** Every minute (EventBridge): records presence timeouts so `presence.updated` fires for them. */
export const handler = async (): Promise<void> => {
  await loadSecrets(); // deployed: the secrets this function is granted (shared/config/secrets.ts)
  const changed = await sweepPresence();
  if (changed) logger.info('presence sweep', { changed });
};
