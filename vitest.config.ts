import { defineConfig } from 'vitest/config';

// Tests mirror the source tree (see test/README.md). Integration and end-to-end tests start real
// processes and servers, so they get generous timeouts; nothing here asserts wall-clock speed.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    reporters: ['default'],
  },
});
