import { keepTopLists } from '../../shared/feed/leaderboard.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';

/**
 * Keeps the week's and the month's top lists (shared/feed/leaderboard.ts): makes a missing one, starts
 * a sweep of the day partitions where one is due, and takes a bounded number of sweep steps (the next
 * run resumes).
 */
export const handler = backgroundHandler('feed', async (): Promise<void> => {
  await keepTopLists();
});
