import { loadSecrets } from '../../shared/config/secrets.ts';
import { announceClosedPolls } from '../../shared/feed/polls.ts';
import { logger } from '../../shared/observability/logger.ts';

/** Every minute (EventBridge): polls whose closesAt passed are announced to their author and voters. */
export const handler = async (): Promise<void> => {
  await loadSecrets(); // deployed: the secrets this function is granted (shared/config/secrets.ts)
  const announced = await announceClosedPolls();
  if (announced) logger.info('poll closing sweep', { announced });
};
