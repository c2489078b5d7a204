import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { CloudFormationCustomResourceEvent, Context } from 'aws-lambda';
import { fetchSecret } from '../../shared/config/secrets.ts';
import { startNewEpoch } from '../../shared/live/event-log.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';
import { ensureFirstSuperAdmin } from '../../shared/people/bootstrap.ts';

/**
 * The deploy hook: a CloudFormation custom resource of the background stack whose properties change
 * on every deployment, so CloudFormation calls this function once per deploy, after the new code of
 * every route is live (the background stack depends on the route stacks):
 * - starts a new change-feed epoch, so live-update ids handed out by the previous code resync
 *   (a stream's `Last-Event-ID` from before the deploy answers `resync`);
 * - creates the first super admin when none exists (ADMIN_EMAIL, with the password generated in
 *   Secrets Manager, read here from the secret ADMIN_PASSWORD_SECRET_ARN names), so the service is
 *   usable right after `cdk deploy`;
 * - starts this release's migrations (shared/migrations/): it invokes the migrations functions (the
 *   general one and the grievance area's, MIGRATIONS_FUNCTION_NAMES) asynchronously, each of which
 *   pages its own until its timeout, and their schedules carry on from there, so a long backfill never
 *   holds CloudFormation and this hook reads no application secret. A failing migration does not fail
 *   the deployment (the code reads both forms); it fails its function's runs, which the
 *   background-failure alarm watches.
 *
 * A plain Lambda-backed custom resource (no CDK provider framework, so no extra functions and roles):
 * it answers CloudFormation itself by PUTting the result to the presigned `ResponseURL`.
 */
export const handler = backgroundHandler(
  'deploy',
  async (event: CloudFormationCustomResourceEvent, context: Context): Promise<void> => {
    let result: { Status: 'SUCCESS' | 'FAILED'; Reason?: string; Data?: Record<string, string> };
    try {
      result = { Status: 'SUCCESS', Data: event.RequestType === 'Delete' ? {} : await onDeploy(event.RequestType) };
    } catch (error) {
      logger.error('deploy hook failed', { error: error as Error });
      result = { Status: 'FAILED', Reason: `${(error as Error).message} (log stream ${context.logStreamName})` };
    }
    await respond(event, result);
  },
);

async function onDeploy(requestType: 'Create' | 'Update'): Promise<Record<string, string>> {
  const { epoch } = await startNewEpoch();
  const migrationsFunctions = (process.env.MIGRATIONS_FUNCTION_NAMES ?? '').split(',').filter(Boolean);
  if (migrationsFunctions.length) {
    const lambda = new LambdaClient({});
    for (const name of migrationsFunctions)
      await lambda.send(new InvokeCommand({ FunctionName: name, InvocationType: 'Event' }));
    lambda.destroy();
  }
  const email = process.env.ADMIN_EMAIL;
  const passwordSecret = process.env.ADMIN_PASSWORD_SECRET_ARN;
  let adminCreated = false;
  if (email && passwordSecret) {
    ({ created: adminCreated } = await ensureFirstSuperAdmin(email, await fetchSecret(passwordSecret)));
  }
  logger.info('deploy hook', { requestType, epoch, adminCreated, migrationsStarted: migrationsFunctions.length > 0 });
  return {
    epoch: String(epoch),
    adminCreated: String(adminCreated),
    migrationsStarted: String(migrationsFunctions.length > 0),
  };
}

/** CloudFormation's custom resource response (the presigned URL is signed without a content type). */
async function respond(
  event: CloudFormationCustomResourceEvent,
  result: { Status: 'SUCCESS' | 'FAILED'; Reason?: string; Data?: Record<string, string> },
): Promise<void> {
  const body = JSON.stringify({
    ...result,
    PhysicalResourceId: 'PhysicalResourceId' in event ? event.PhysicalResourceId : 'deploy-hook',
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  });
  const response = await fetch(event.ResponseURL, { method: 'PUT', headers: { 'content-type': '' }, body });
  if (!response.ok) throw new Error(`CloudFormation response rejected: ${response.status}`);
}
