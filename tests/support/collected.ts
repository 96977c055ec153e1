import type { TestCase, TestResult } from '@playwright/test/reporter';
import type { CheckpointPair, CollectedTest } from '../../src/report/collect';
import type { CapturedSignals } from '../../src/types';

/** Signals of a page with no console error, no failed request and no accessibility check. */
export const QUIET: CapturedSignals = { origin: null, aria: null, consoleErrors: [], failedRequests: [], a11y: null, interaction: null };

/** A checkpoint as the reporter collects it: its images by path, settled unless named `unsettled`. */
export function checkpointPair(
  name: string,
  baseline: string | null,
  current: string | null,
  extra: Partial<CheckpointPair> = {},
): CheckpointPair {
  return {
    name,
    baseline,
    current,
    meta: current ? { name, intent: `${name} intent`, stable: name !== 'unsettled', unsettled: null, signals: QUIET } : null,
    baseSignals: QUIET,
    layouts: { baseline: null, current: null },
    baseCapture: null,
    liveDiff: null,
    ...extra,
  };
}

/** A test of pricing.spec.ts in the chromium project, as the reporter collects it, that passed with a baseline. */
export function collectedTest(title: string, pairs: CheckpointPair[], extra: Partial<CollectedTest> = {}): CollectedTest {
  const titlePath = ['pricing.spec.ts', 'pricing', title];
  return {
    // Playwright's objects are for the annotation edge only: no stage here reads them.
    test: {} as TestCase,
    result: {} as TestResult,
    key: ['chromium', ...titlePath].join(' › '),
    folder: `chromium/${title}`,
    project: 'chromium',
    title,
    titlePath,
    file: '/repo/tests/pricing.spec.ts',
    status: 'passed',
    error: null,
    meta: {
      key: '',
      folder: '',
      baseline: { available: true, error: null, checkpoints: [], record: null },
      options: { intent: 'Pricing shows three plans' },
    },
    baselineAvailable: true,
    baselineError: null,
    pairs,
    ...extra,
  };
}
