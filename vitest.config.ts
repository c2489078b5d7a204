import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { FileDurationsReporter, LongestFirstSequencer } from './test/support/file-durations.ts';
import { RUNTIME_LOG_VARIABLE } from './test/support/runtime-log.ts';

// One log file per run for the runtime's and the domain's log lines (test/support/runtime-log.ts);
// the test workers inherit the variable.
process.env[RUNTIME_LOG_VARIABLE] ||= join(
  tmpdir(),
  `workplace-test-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.log`,
);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'shared/**/*.test.ts', 'functions/**/*.test.ts', 'infra/**/*.test.ts'],
    // Local runtimes (DynamoDB Local, s3rver, the API) in processes of their own, one per worker slot and
    // replaced every few files (test/support/runtime-pool.ts); a file reaches its runtime over HTTP or
    // calls domain modules directly with the same environment.
    globalSetup: ['test/support/global-setup.ts'],
    // One file at a time by default: with two at once (TEST_WORKERS=2, each on its own runtime) the
    // latency budgets of test/notifications/company-fan-out.test.ts (a reply within 2 s during a
    // 5,000-person fan-out) failed while the other worker held a core; such files need a group of
    // their own before two workers can be the default (docs/testing.md).
    maxWorkers: Number(process.env.TEST_WORKERS) || 1,
    setupFiles: ['test/support/setup-env.ts'],
    reporters: ['default', new FileDurationsReporter(), './test/support/runtime-log-reporter.ts'],
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
