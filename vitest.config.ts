import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'shared/**/*.test.ts', 'functions/**/*.test.ts', 'infra/**/*.test.ts'],
    // One local runtime (DynamoDB Local, s3rver, the API) for the whole run; tests reach it over HTTP
    // or call domain modules directly with the same environment.
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup-env.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
