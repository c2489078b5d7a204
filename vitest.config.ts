import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
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
    // One local runtime (DynamoDB Local, s3rver, the API) for the whole run; tests reach it over HTTP
    // or call domain modules directly with the same environment.
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup-env.ts'],
    reporters: ['default', './test/support/runtime-log-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
