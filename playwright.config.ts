import { defineConfig } from '@playwright/test';
import { applySystemChromium } from './src/config/browser';

/**
 * The end-to-end suite: each spec builds a temporary git repository from fixtures/, runs the
 * plugin there with a real nested Playwright, and checks what a user would see.
 */
export default defineConfig(
  applySystemChromium({
    testDir: 'tests',
    testMatch: ['e2e/**/*.spec.ts', 'faults/**/*.spec.ts'],
    globalSetup: './tests/support/global-setup.ts',
    timeout: 300_000,
    expect: { timeout: 10_000 },
    use: { actionTimeout: 15_000 },
    fullyParallel: true,
    workers: 2,
    reporter: [['list']],
  }),
);
