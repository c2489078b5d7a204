import type { DynamoDBStreamEvent } from 'aws-lambda';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { recordTargets } from '../../shared/reach/targets.ts';

/** Stream consumer (filters in shared/reach/targets.ts): a post's targeted and delivered at publish; a deleted post's reach removed. */
export const handler = backgroundHandler('reach', async (event: DynamoDBStreamEvent): Promise<void> => {
  await recordTargets(event.Records);
});
