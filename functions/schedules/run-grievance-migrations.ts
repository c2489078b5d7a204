import type { Context } from 'aws-lambda';
import { runScheduledMigrations } from '../../shared/migrations/runner.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { grievanceSteps } from '../../shared/registry/grievance-migrations.ts';

/**
 * Every 5 minutes (EventBridge): runs what is left of the grievance area's migrations, the ones that
 * open its seals, in this function of the grievance area, which alone of the migrations holds the
 * grievance key; it waits on the general migrations ordered before them (run-migrations.ts runs
 * those). docs/deployment.md, "Upgrading and rolling back".
 */
export const handler = backgroundHandler('migrations', (_event: unknown, context: Context) =>
  runScheduledMigrations(grievanceSteps, context.getRemainingTimeInMillis()),
);
