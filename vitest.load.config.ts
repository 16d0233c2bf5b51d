import { defineConfig } from 'vitest/config';

/**
 * Load and fault tests: real shop processes on the local PostgreSQL (and Redis), one file at a time
 * since each one loads the machine (see tests/load/load.global.ts and docs/decisions/0013).
 */
export default defineConfig({
  test: {
    include: ['tests/load/**/*.test.ts'],
    globalSetup: ['./tests/load/load.global.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
