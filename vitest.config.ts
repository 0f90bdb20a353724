import { defineConfig } from 'vitest/config';

// `npm test`: everything that needs no browser, then the e2e suite again with the store on PostgreSQL.
// forks pool: the native sqlite3 addon is not thread-safe to share.
export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A throwaway PostgreSQL cluster for the store tests on both engines (test/pg/cluster.ts).
    globalSetup: ['test/pg/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'main', include: ['test/**/*.test.ts'], exclude: ['test/browser/**', 'node_modules/**'] },
      },
      {
        extends: true,
        test: { name: 'e2e-postgres', include: ['test/e2e/**/*.test.ts'], env: { E2E_STORE: 'postgres' } },
      },
    ],
  },
});
