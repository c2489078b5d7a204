import { buildTopLists } from '../../shared/feed/leaderboard.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';

/** Builds the week's and the month's top lists that need it from their day partitions (shared/feed/leaderboard.ts). */
export const handler = backgroundHandler('feed', async (): Promise<void> => {
  await buildTopLists();
});
