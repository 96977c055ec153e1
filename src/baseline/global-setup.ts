import type { FullConfig } from '@playwright/test';
import { currentRole } from '../config/environment';

/**
 * Global setup: resolve the base commit, check it out in a worktree, run the baseline pass there,
 * and tell the workers (through the environment) where the baselines are (setup.ts). The nested
 * baseline run loads this file too and returns at once: what the setup needs (TypeScript's
 * compiler among it) is loaded only by the run that uses it.
 */
export default async function globalSetup(config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  if (currentRole() === 'baseline') return undefined;
  const { runSetup } = await import('./setup');
  return runSetup(config);
}
