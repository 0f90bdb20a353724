import { defineConfig } from 'vitest/config';

// `npm run test:image` (after `npm run image`): the container image, compose.yaml and the Kubernetes manifest under
// podman. One file at a time: each starts containers that take most of a core while they boot. No test binds a fixed
// host port: `npm start`'s playground may hold 8791 meanwhile.
export default defineConfig({
  test: {
    include: ['test/image/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
