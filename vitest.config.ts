import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { FileDurationsReporter, LongestFirstSequencer } from './test/support/file-durations.ts';
import { RUNTIME_LOG_VARIABLE } from './test/support/runtime-log.ts';

// One log file per run for the runtime's and the domain's log lines (test/support/runtime-log.ts);
// the test workers inherit the variable.
process.env[RUNTIME_LOG_VARIABLE] ||= join(
  tmpdir(),
  `workplace-test-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.log`,
);

/**
 * Files that measure their own latency (the company fan-out's reply within 2 s while 5,000
 * notifications go out): run after the rest, one at a time, so another file's work never counts in
 * their figures. Everything else runs on two workers (docs/testing.md, "How the suite runs").
 */
const ALONE = ['test/notifications/company-fan-out.test.ts'];

export default defineConfig({
  test: {
    // Local runtimes (DynamoDB Local, s3rver, the API) in processes of their own, one per worker slot and
    // replaced every few files (test/support/runtime-pool.ts); a file reaches its runtime over HTTP or
    // calls domain modules directly with the same environment.
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup-env.ts'],
    reporters: ['default', new FileDurationsReporter(), './test/support/runtime-log-reporter.ts'],
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts', 'shared/**/*.test.ts', 'functions/**/*.test.ts', 'infra/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ALONE],
          // Two files at once on this two-core machine (each on its own runtime): one left a core idle
          // between a request's hops (1.2 of 2 cores busy), two keep both busy (1.8).
          maxWorkers: Number(process.env.TEST_WORKERS) || 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
