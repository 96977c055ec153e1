import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts'],
    globalSetup: ['tests/support/unit-tmp.ts', 'tests/support/unit-validators.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
