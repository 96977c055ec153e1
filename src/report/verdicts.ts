import path from 'node:path';
import type { CheckpointSignals, ComparisonTolerance, CheckpointStatus, DiffMetrics, Evaluation, FailOn, TestStatus } from '../types';
import { compareImages, compareSignals, CompareError, hasNewSignals, testBaseSignals } from '../compare';
import type { EvaluationRequest, Evaluator, EvaluatorVerdict } from '../evaluate';
import type { ResolvedOptions } from '../config/options';
import type { CheckpointPair, CollectedTest } from './collect';

/** A checkpoint after compare (and, later, evaluate): what the results file and the report show. */
export interface CheckpointVerdict {
  name: string;
  status: CheckpointStatus;
  baselineImage: string | null;
  currentImage: string | null;
  diffImage: string | null;
  diffMetrics: DiffMetrics | null;
  evaluation: Evaluation | null;
  /** Why: the evaluator's reason, the missing evaluator, the base error, the compare error. */
  reason: string;
  /** What current has that base has not, besides pixels; never changes an unchanged status. */
  signals: CheckpointSignals;
  /** The baseline image could not be read: its cache entry must not be used again. */
  baselineUnreadable?: true;
}

export const NO_EVALUATOR_REASON = 'no evaluator configured';

function tolerance(options: ResolvedOptions, ...overrides: (ComparisonTolerance | null | undefined)[]): Required<ComparisonTolerance> {
  const merged: Required<ComparisonTolerance> = {
    threshold: options.threshold,
    maxDiffPixels: options.maxDiffPixels,
    maxDiffPixelRatio: options.maxDiffPixelRatio,
  };
  for (const override of overrides) {
    if (!override) continue;
    if (override.threshold !== undefined) merged.threshold = override.threshold;
    if (override.maxDiffPixels !== undefined) merged.maxDiffPixels = override.maxDiffPixels;
    if (override.maxDiffPixelRatio !== undefined) merged.maxDiffPixelRatio = override.maxDiffPixelRatio;
  }
  return merged;
}

function verdict(test: CollectedTest, pair: CheckpointPair, status: CheckpointStatus, reason: string, extra: Partial<CheckpointVerdict> = {}): CheckpointVerdict {
  return {
    name: pair.name,
    status,
    baselineImage: pair.baseline,
    currentImage: pair.current,
    diffImage: null,
    diffMetrics: null,
    evaluation: null,
    reason,
    signals: compareSignals(pair.signals.base, pair.signals.current, testBaseSignals(test.pairs.map((other) => other.signals.base))),
    ...extra,
  };
}

/** The auto gate: identical or within tolerance is unchanged; anything else goes on to be judged. */
export async function comparePair(test: CollectedTest, pair: CheckpointPair, options: ResolvedOptions, diffRoot: string): Promise<CheckpointVerdict> {
  if (!pair.current) return verdict(test, pair, 'missing', 'in the baseline only: the current run did not capture it');
  if (test.context?.sameAsBase) return verdict(test, pair, 'unchanged', 'base and current are the same commit with a clean tree', { baselineImage: pair.current });
  if (!pair.baseline) {
    const baseError = test.meta?.baseline.error ?? test.context?.baselineError ?? null;
    return verdict(test, pair, 'new', baseError ? `no baseline: ${baseError}` : 'no baseline: the base version does not take this checkpoint');
  }
  try {
    const outcome = await compareImages({
      baseline: pair.baseline,
      current: pair.current,
      diffOutput: path.join(diffRoot, test.folder, `${pair.name}-diff.png`),
      tolerance: tolerance(options, test.meta?.options, pair.meta),
    });
    if (outcome.kind === 'identical') return verdict(test, pair, 'unchanged', 'identical');
    if (outcome.kind === 'within-tolerance') return verdict(test, pair, 'unchanged', 'within tolerance', { diffMetrics: outcome.metrics });
    return verdict(test, pair, 'needs_review', NO_EVALUATOR_REASON, { diffImage: outcome.diffImage, diffMetrics: outcome.metrics });
  } catch (error) {
    if (!(error instanceof CompareError)) return verdict(test, pair, 'errored', `compare failed: ${(error as Error).message}`);
    return verdict(test, pair, 'errored', error.message, error.side === 'baseline' ? { baselineUnreadable: true } : {});
  }
}

/** A changed pair the auto gate could not settle: the evaluator's to judge (without one it stays needs_review). */
function awaitsJudgement(verdict: CheckpointVerdict): boolean {
  return verdict.status === 'needs_review' && verdict.evaluation === null && verdict.diffImage !== null && verdict.diffMetrics !== null;
}

function evaluationRequest(test: CollectedTest, pair: CheckpointPair, verdict: CheckpointVerdict): EvaluationRequest {
  return {
    name: verdict.name,
    project: test.test.parent.project()?.name ?? '',
    intent: { test: test.meta?.options.intent ?? null, checkpoint: pair.meta?.intent ?? null, titlePath: test.test.titlePath().slice(3) },
    context: test.context,
    metrics: verdict.diffMetrics!,
    signals: verdict.signals,
    images: { baseline: verdict.baselineImage!, current: verdict.currentImage!, diff: verdict.diffImage! },
  };
}

function signalsSummary(signals: CheckpointSignals): string {
  const parts = [
    [signals.newConsoleErrors.length, 'console error'],
    [signals.newFailedRequests.length, 'failed request'],
    [signals.newA11yViolations.length, 'accessibility violation'],
  ] as const;
  return parts
    .filter(([count]) => count > 0)
    .map(([count, what]) => `${count} new ${what}${count === 1 ? '' : 's'}`)
    .join(', ');
}

/** The evaluator may approve the pixels; new errors on the page still need a person's eyes. */
function withJudgement(verdict: CheckpointVerdict, judged: EvaluatorVerdict): CheckpointVerdict {
  const judgedVerdict = { ...verdict, status: judged.status, evaluation: judged.evaluation, reason: judged.reason };
  if (judged.status !== 'changed' || !hasNewSignals(verdict.signals)) return judgedVerdict;
  return { ...judgedVerdict, status: 'needs_review', reason: `${judged.reason} Not approved: ${signalsSummary(verdict.signals)}.` };
}

/**
 * The AI gate over every changed pair of the run, replacing their verdicts in place.
 * `checkpoints[i]` is the verdict of `test.pairs[i]`. Returns how many were judged.
 */
export async function judgeChanged(compared: { test: CollectedTest; checkpoints: CheckpointVerdict[] }[], evaluator: Evaluator): Promise<number> {
  const waiting = compared.flatMap(({ test, checkpoints }) =>
    checkpoints.flatMap((verdict, index) => (awaitsJudgement(verdict) ? [{ test, checkpoints, index, verdict }] : [])),
  );
  const judged = await evaluator.evaluateAll(waiting.map(({ test, index, verdict }) => evaluationRequest(test, test.pairs[index], verdict)));
  waiting.forEach(({ checkpoints, index, verdict }, i) => {
    checkpoints[index] = withJudgement(verdict, judged[i]);
  });
  return waiting.length;
}

export function testStatus(test: CollectedTest, checkpoints: CheckpointVerdict[]): TestStatus {
  const ran = test.result.status === 'passed' || test.result.status === 'skipped';
  if (!ran || checkpoints.some((c) => c.status === 'errored')) return 'errored';
  if (checkpoints.some((c) => c.status === 'regression')) return 'failed';
  if (checkpoints.some((c) => c.status === 'needs_review' || c.status === 'missing')) return 'needs_review';
  return 'passed';
}

/** The checkpoints that make the run exit 1: a status in failOn, or any new signal with 'signals' in it. */
export function failingCheckpoints(checkpoints: CheckpointVerdict[], failOn: readonly FailOn[]): CheckpointVerdict[] {
  return checkpoints.filter(
    (checkpoint) => (failOn as readonly string[]).includes(checkpoint.status) || (failOn.includes('signals') && hasNewSignals(checkpoint.signals)),
  );
}
