import { defineConfig } from 'vitest/config';

// `npm test`: everything that needs no browser. forks pool: the native sqlite3 addon is not thread-safe to share.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/browser/**', 'node_modules/**'],
    pool: 'forks',
    // A throwaway PostgreSQL cluster for the store tests on both engines (test/pg/cluster.ts).
    globalSetup: ['test/pg/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
