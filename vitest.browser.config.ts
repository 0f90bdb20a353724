import { defineConfig } from 'vitest/config';

// `npm run test:browser`: the playground driven in headless Chromium.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
