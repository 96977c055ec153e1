import fs from 'node:fs';
import { writeFileAtomic } from '../util/fs';
import { processAlive } from '../util/process';

/**
 * The gate of a nested base run started ahead of its plan (see pass-ahead.ts): its global setup
 * waits, its base servers already up, until the run that started it writes `go` (its test list is
 * written) or `stop` (the plan runs no pass there). Loaded by the nested run's global setup: it
 * imports nothing heavier than these.
 */

const POLL_MS = 10;

export function openGate(file: string, go: boolean): void {
  writeFileAtomic(file, go ? 'go' : 'stop');
}

function said(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Waits for `go`; `stop`, or the run that started this one gone, ends this run before any test. */
export async function waitAtGate(file: string): Promise<void> {
  const starter = process.ppid;
  for (;;) {
    const word = said(file);
    if (word === 'go') return;
    if (word === 'stop' || !processAlive(starter)) throw new Error('visual-uat: the base pass started ahead of its plan is not needed');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
