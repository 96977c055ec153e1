import { test as base } from '@playwright/test';
import type { VisualUatTestOptions } from '../types';
import { takeCheckpoint, type CheckpointOptions } from './checkpoint';
import { recorderFor } from './signals';

export type ScreenshotCheckpoint = (name: string, options?: CheckpointOptions) => Promise<void>;

export interface VisualUatFixtures {
  visualUat: VisualUatTestOptions;
  screenshotCheckpoint: ScreenshotCheckpoint;
}

export const test = base.extend<VisualUatFixtures>({
  visualUat: [{}, { option: true, box: 'self' }],
  screenshotCheckpoint: [
    async ({ page, visualUat }, use, testInfo) => {
      // Record from the start of the test, so the first checkpoint sees the errors of the first page load.
      recorderFor(page);
      await use((name, options) => takeCheckpoint(page, testInfo, name, options, visualUat));
    },
    // No step of its own (nor has the option above): its location would be this file (under pnpm,
    // node_modules/.pnpm/…), and each checkpoint is a step at the user's line already.
    { box: 'self' },
  ],
});
