import type { Context } from 'aws-lambda';
import { runScheduledMigrations } from '../../shared/migrations/runner.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { generalSteps } from '../../shared/registry/general-migrations.ts';

/**
 * Every 5 minutes (EventBridge): runs what is left of the migrations (shared/migrations/runner.ts) but
 * the grievance area's, which it waits on where the order puts them (run-grievance-migrations.ts runs
 * them, with the grievance key this function is not granted). Once every migration is done a run reads
 * one partition and ends (docs/deployment.md, "Upgrading and rolling back").
 */
export const handler = backgroundHandler('migrations', (_event: unknown, context: Context) =>
  runScheduledMigrations(generalSteps, context.getRemainingTimeInMillis()),
);
