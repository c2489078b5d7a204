import { publishDuePosts } from '../../shared/feed/scheduled-posts.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';

/** Every minute (EventBridge): scheduled posts whose moment came are published (docs/scheduled-posts.md). */
export const handler = backgroundHandler('feed', async (): Promise<void> => {
  const published = await publishDuePosts();
  if (published) logger.info('scheduled posts published', { published });
});
