import type { FullConfig } from '@playwright/test';
import { currentRole, ENV } from '../config/environment';
import { waitAtGate } from './gate';

/**
 * Global setup: resolve the base commit, check it out in a worktree, run the baseline pass there,
 * and tell the workers (through the environment) where the baselines are (setup.ts). The nested
 * baseline run loads this file too and returns at once, or, started ahead of its plan, once its
 * gate opens (gate.ts): what the setup needs (TypeScript's compiler among it) is loaded only by
 * the run that uses it.
 */
export default async function globalSetup(config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  if (currentRole() === 'baseline') {
    const gate = ENV.passGate.read();
    if (gate) await waitAtGate(gate);
    return undefined;
  }
  const { runSetup } = await import('./setup');
  return runSetup(config);
}
