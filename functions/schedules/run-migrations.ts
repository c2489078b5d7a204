import type { Context } from 'aws-lambda';
import { runMigrations } from '../../shared/migrations/runner.ts';
import { backgroundHandler } from '../../shared/observability/instrumented.ts';
import { logger } from '../../shared/observability/logger.ts';
import { migrations } from '../../shared/registry/migrations.ts';

/**
 * Every 5 minutes (EventBridge): runs what is left of the migrations (shared/migrations/runner.ts) until
 * 30 s before this invocation's timeout; the next run resumes where this one stopped. Once every
 * migration is done a run reads one partition and ends. A failed migration fails the run, so the
 * background-failure alarm reaches the operators (docs/deployment.md, "Upgrading and rolling back").
 */
export const handler = backgroundHandler('migrations', async (_event: unknown, context: Context): Promise<void> => {
  const budgetMs = Math.max(5_000, context.getRemainingTimeInMillis() - 30_000);
  const { complete, states } = await runMigrations(migrations, { budgetMs });
  if (!complete) logger.info('migrations pending', { states });
  const failed = states.filter((s) => s.status === 'failed');
  if (failed.length) throw new Error(`migrations failed: ${failed.map((s) => `${s.id} (${s.error})`).join('; ')}`);
});
