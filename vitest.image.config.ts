import { defineConfig } from 'vitest/config';

// `npm run test:image` (after `npm run image`): the container image and the Kubernetes manifest under podman. One file
// at a time: each starts containers that take most of a core while they boot.
export default defineConfig({
  test: {
    include: ['test/image/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
