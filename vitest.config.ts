import { defineConfig } from 'vitest/config';

// The API suite runs on PostgreSQL: the embedded server (one per run, started by the global setup), or the
// server TEST_DATABASE_URL names.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only add contention.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts', 'web/src/**/*.test.ts', 'test/carrier/**/*.test.ts', 'eslint/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'api',
          globalSetup: ['test/support/global-setup.ts'],
          include: ['test/api/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          // Real processes and a real browser start slowly on a busy two-core machine.
          testTimeout: 90_000,
        },
      },
    ],
  },
});
