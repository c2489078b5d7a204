import { refreshLists } from '../../shared/documents/consumer.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';

/** Builds the whole lists' documents again from the table (shared/documents/consumer.ts). */
export const handler = backgroundHandler('documents', async (): Promise<void> => {
  await refreshLists();
});
