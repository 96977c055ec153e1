import fs from 'node:fs';
import { timed } from '../config/timing';
import type { ComparisonTolerance, DiffMetrics, RecordedComparison } from '../types';
import { CompareError, type CompareInput, type CompareOutcome, type ImageSide } from './compare';
import type { ChangePrint } from './fingerprint';
import { runCompare } from './pool';
import { reuseComparison } from './recorded';

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
  /** The comparison the test's worker made of the current image while the page was alive, and its diff image (see recorded.ts). */
  recorded?: { comparison: RecordedComparison | null; diffImage: string | null };
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

/** The worker's comparison of this pair, when it holds for these files (recorded.ts); null: compare them here. */
function recordedOutcome(recorded: PairInput['recorded'], pair: CompareInput): CompareOutcome | null {
  if (!recorded?.comparison) return null;
  let sides: { baseline: Buffer; current: Buffer };
  try {
    sides = { baseline: fs.readFileSync(pair.baseline), current: fs.readFileSync(pair.current) };
  } catch {
    // An image that cannot be read: the comparison below says which, and why.
    return null;
  }
  return reuseComparison(
    recorded.comparison,
    { ...sides, tolerance: pair.tolerance },
    { recorded: recorded.diffImage, output: pair.diffOutput },
  );
}

/** Compares one pair; never throws (a pair that cannot be compared is `errored`, with the reason). */
export async function comparePair(input: PairInput): Promise<PairComparison> {
  if (!input.current) return { kind: 'baseline-only' };
  if (input.sameCode) return { kind: 'same-code' };
  if (!input.baseline) return { kind: 'current-only' };
  try {
    const pair: CompareInput = {
      baseline: input.baseline,
      current: input.current,
      diffOutput: input.diffOutput,
      tolerance: input.tolerance,
    };
    const reused = recordedOutcome(input.recorded, pair);
    // Counted apart under VISUAL_UAT_DEBUG=timing: how many pairs were compared once, in the worker.
    if (reused) return timed("compare a pair: the worker's comparison taken", () => reused);
    return await runCompare(pair);
  } catch (error) {
    if (error instanceof CompareError) return { kind: 'errored', message: error.message, side: error.side };
    return { kind: 'errored', message: `compare failed: ${(error as Error).message}`, side: null };
  }
}
