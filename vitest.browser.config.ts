import { defineConfig } from 'vitest/config';

// `npm run test:browser`: the playground driven in headless Chromium. Two files, each with its own playground and
// Chromium, run at once: CI runs them after the suite, when both cores are free.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
