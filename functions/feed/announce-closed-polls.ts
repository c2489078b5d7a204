import { announceClosedPolls } from '../../shared/feed/polls.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';

/** Every minute (EventBridge): polls whose closesAt passed are announced to their author and voters. */
export const handler = backgroundHandler('feed', async (): Promise<void> => {
  const announced = await announceClosedPolls();
  if (announced) logger.info('poll closing sweep', { announced });
});
