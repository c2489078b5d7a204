import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { refreshLists } from '../../shared/whole-lists/consumer.ts';

/** Builds the whole lists' documents again from the table (shared/whole-lists/consumer.ts). */
export const handler = backgroundHandler('documents', async (): Promise<void> => {
  await refreshLists();
});
