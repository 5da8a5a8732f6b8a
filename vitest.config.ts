import { defineConfig } from 'vitest/config';

// The API suite runs once per database: always on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set.
const databases = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only add contention.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts', 'test/carrier/**/*.test.ts'] } },
      ...databases.map((db) => ({
        extends: true as const,
        test: {
          name: `api-${db}`,
          include: ['test/api/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          // Real processes and a real browser start slowly on a busy two-core machine.
          testTimeout: 90_000,
          env: { TASMAN_TEST_DB: db },
        },
      })),
    ],
  },
});
