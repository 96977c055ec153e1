import type { ComparisonTolerance, DiffMetrics } from '../types';
import { CompareError, type ImageSide } from './compare';
import type { ChangePrint } from './fingerprint';
import { runCompare } from './pool';

/**
 * What one checkpoint pair is, said once by compare/: every later stage (approvals, the
 * evaluator, the final status) reads this value and never compares again.
 */
export type PairComparison =
  /** The current pass took it, the base pass did not. */
  | { kind: 'current-only' }
  /** The base pass took it, the current pass did not. */
  | { kind: 'baseline-only' }
  /** Base and current are the same code: the current image is its own baseline. */
  | { kind: 'same-code' }
  | { kind: 'identical' }
  | { kind: 'within-tolerance'; metrics: DiffMetrics }
  | { kind: 'different'; metrics: DiffMetrics; diffImage: string; change: ChangePrint }
  /** The images could not be compared; `side` names the one at fault, when one is. */
  | { kind: 'errored'; message: string; side: ImageSide | null };

export interface PairInput {
  baseline: string | null;
  current: string | null;
  sameCode: boolean;
  /** Where the diff image goes when the images differ. */
  diffOutput: string;
  tolerance: Required<ComparisonTolerance>;
}

/** Nothing measured, or nothing changed: the results file's diffMetrics is never null. */
export const NO_DIFF: DiffMetrics = { pixelDiffPercent: 0, changedRegions: [] };

/** The run's tolerance, overridden by the test's, then by the checkpoint's. */
export function mergeTolerance(
  base: Required<ComparisonTolerance>,
  ...overrides: (ComparisonTolerance | null | undefined)[]
): Required<ComparisonTolerance> {
  const merged = { ...base };
  for (const override of overrides) {
    if (!override) continue;
    if (override.threshold !== undefined) merged.threshold = override.threshold;
    if (override.maxDiffPixels !== undefined) merged.maxDiffPixels = override.maxDiffPixels;
    if (override.maxDiffPixelRatio !== undefined) merged.maxDiffPixelRatio = override.maxDiffPixelRatio;
  }
  return merged;
}

/** Compares one pair; never throws (a pair that cannot be compared is `errored`, with the reason). */
export async function comparePair(input: PairInput): Promise<PairComparison> {
  if (!input.current) return { kind: 'baseline-only' };
  if (input.sameCode) return { kind: 'same-code' };
  if (!input.baseline) return { kind: 'current-only' };
  try {
    return await runCompare({ baseline: input.baseline, current: input.current, diffOutput: input.diffOutput, tolerance: input.tolerance });
  } catch (error) {
    if (error instanceof CompareError) return { kind: 'errored', message: error.message, side: error.side };
    return { kind: 'errored', message: `compare failed: ${(error as Error).message}`, side: null };
  }
}
