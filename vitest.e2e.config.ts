import { defineConfig } from 'vitest/config';

/** Browser journeys in Debian's Chromium against the built server (see tests/e2e/server.global.ts). */
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.spec.ts'],
    globalSetup: ['./tests/e2e/server.global.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
