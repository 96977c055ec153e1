import { comparePair, compareSignals, mergeTolerance, testBaseSignals, withAriaLines, type PairComparison } from '../compare';
import type { Settings } from '../config/settings';
import { diffImage } from '../config/paths';
import type { BaseCapture } from '../capture';
import { explainChange, type Explanation, type LayoutGap } from '../explain';
import { readLayout } from '../files/run-folder';
import type { CheckpointSignals, RunContext } from '../types';
import type { CodeChange } from '../git/code-change';
import type { CheckpointPair, CollectedTest } from './collect';
import { timed } from '../config/timing';

/** One checkpoint after compare: what the pair is, and what current has that base has not. */
export interface Compared {
  test: CollectedTest;
  pair: CheckpointPair;
  comparison: PairComparison;
  signals: CheckpointSignals;
  /** For a pair that differs: its change in words, from the two layout records and the branch's diffs. */
  explanation: Explanation | null;
}

/** The two images a checkpoint is judged (and approved) on: with base = current, current is its own baseline. */
export function imagesOf(compared: Pick<Compared, 'pair' | 'comparison'>): { baseline: string | null; current: string | null } {
  const { pair, comparison } = compared;
  return { baseline: comparison.kind === 'same-code' ? pair.current : pair.baseline, current: pair.current };
}

/** Why a compared base side has no layout record, from what the base pass recorded of its capture (see BaselineTestRecord.layouts). */
export function baseLayoutGap(capture: BaseCapture | null, file: string | null): LayoutGap {
  if (file) return 'unreadable';
  if (!capture) return 'unknown';
  if (capture.layout) return 'file-missing';
  return capture.testStatus === 'passed' ? 'page-unreadable' : 'base-test-failed';
}

/** The branch's diffs (see git codeChanges), read when first asked for: a run with no change never reads them. */
export type BranchCode = () => Promise<readonly CodeChange[]>;

const NO_CODE: BranchCode = async () => [];

/**
 * Compares every pair of the run (the compare pool bounds how many are decoded at once), and
 * explains each pair that differs from its layout records and `code`, the branch's diffs.
 */
export function compareCheckpoints(
  tests: CollectedTest[],
  context: RunContext | null,
  settings: Settings,
  code: BranchCode = NO_CODE,
): Promise<Compared[]> {
  const { options } = settings;
  const runTolerance = { threshold: options.threshold, maxDiffPixels: options.maxDiffPixels, maxDiffPixelRatio: options.maxDiffPixelRatio };
  return Promise.all(
    tests.flatMap((test) => {
      // A console error or failed request any base checkpoint of the test had is not new at another one.
      const testBase = testBaseSignals(test.pairs.map((pair) => pair.baseSignals));
      return test.pairs.map(async (pair): Promise<Compared> => {
        const comparison = await timed('compare a pair', () =>
          comparePair({
            baseline: pair.baseline,
            current: pair.current,
            sameCode: context?.sameAsBase ?? false,
            diffOutput: diffImage(settings.outputDir, test.folder, pair.name),
            tolerance: mergeTolerance(runTolerance, test.meta?.options, pair.meta),
            recorded: { comparison: pair.meta?.comparison ?? null, diffImage: pair.liveDiff },
          }),
        );
        const signals = compareSignals(pair.baseSignals, pair.meta?.signals ?? null, testBase);
        // The text that changed is part of what changed: two pairs whose pixels match but whose text differs are not the same change.
        if (comparison.kind !== 'different') return { test, pair, comparison, signals, explanation: null };
        const [base, current] = timed('read layout records', () => [readLayout(pair.layouts.baseline), readLayout(pair.layouts.current)]);
        const gaps = {
          base: baseLayoutGap(pair.baseCapture, pair.layouts.baseline),
          current: pair.layouts.current ? 'unreadable' : 'page-unreadable',
        } as const;
        // Each side's page origin, so a URL in a style that differs only by the servers' ports is no change.
        const origins = { base: pair.baseSignals?.origin ?? null, current: pair.meta?.signals?.origin ?? null };
        // Each side's pointer and focus state, so a hover style the test left on one side only is put down to it, not to a commit.
        const interaction = { base: pair.baseSignals?.interaction ?? null, current: pair.meta?.signals?.interaction ?? null };
        const changes = await code();
        const explanation = timed('explain', () =>
          explainChange(base, current, comparison.metrics.changedRegions, changes, gaps, origins, interaction),
        );
        return {
          test,
          pair,
          comparison: { ...comparison, change: withAriaLines(comparison.change, signals.ariaDiff) },
          signals,
          explanation,
        };
      });
    }),
  );
}
