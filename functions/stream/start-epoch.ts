import { startNewEpoch } from '../../shared/live/event-log.ts';

/**
 * A deploy restarts the service: a CloudFormation custom resource (CDK Provider framework, a property
 * that changes on every deployment) calls this to start a new change-feed epoch, so ids handed out by
 * the previous code resync (spec 6.1 rule 3). The local runtime does the same at every start.
 */
export const handler = async (event: { RequestType: 'Create' | 'Update' | 'Delete'; PhysicalResourceId?: string }) => {
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId ?? 'live-epoch' };
  const { epoch } = await startNewEpoch();
  return { PhysicalResourceId: 'live-epoch', Data: { epoch } };
};
