import { test, type Page } from '@playwright/test';
import { takeCheckpoint, type CheckpointOptions } from './checkpoint';

/**
 * The seed-style helper: `await screenshotCheckpoint(page, 'name')` inside any Playwright test.
 * Test-level options (intent, skip, thresholds) are not visible here: pass them per checkpoint.
 */
export async function screenshotCheckpoint(page: Page, name: string, options?: CheckpointOptions): Promise<void> {
  await takeCheckpoint(page, test.info(), name, options);
}

export type { CheckpointOptions };
