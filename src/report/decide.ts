import { describeApproval, type Approval } from '../approve';
import { hasNewSignals, NO_DIFF, type PairComparison } from '../compare';
import type { EvaluatorVerdict } from '../evaluate';
import type { CheckpointSignals, CheckpointStatus, DiffMetrics, Evaluation, FailOn, TestStatus } from '../types';
import { plural } from '../util/text';
import { imagesOf, type Compared } from './assess';

export const NO_EVALUATOR_REASON = 'no evaluator configured';

/** Everything a checkpoint's final status depends on. */
export interface DecisionInput {
  comparison: PairComparison;
  /** Why the base pass has no image of the checkpoint, when it has none. */
  baseError: string | null;
  /** An approval that applies to the pair (the human gate). */
  approval: Approval | null;
  /** The evaluator's verdict (the AI gate); null when nobody judged the pair. */
  judgement: EvaluatorVerdict | null;
  signals: CheckpointSignals;
}

export interface Decision {
  status: CheckpointStatus;
  reason: string;
  evaluation: Evaluation | null;
}

function signalsSummary(signals: CheckpointSignals): string {
  const parts = [
    [signals.newConsoleErrors.length, 'console error'],
    [signals.newFailedRequests.length, 'failed request'],
    [signals.newA11yViolations.length, 'accessibility violation'],
  ] as const;
  return parts
    .filter(([count]) => count > 0)
    .map(([count, what]) => plural(count, `new ${what}`))
    .join(', ');
}

/** The evaluator may approve the pixels; new errors on the page still need a person's eyes. */
function judged(judgement: EvaluatorVerdict, signals: CheckpointSignals): Decision {
  const decision = { status: judgement.status, reason: judgement.reason, evaluation: judgement.evaluation };
  if (judgement.status !== 'changed' || !hasNewSignals(signals)) return decision;
  return { ...decision, status: 'needs_review', reason: `${judgement.reason} Not approved: ${signalsSummary(signals)}.` };
}

/**
 * A checkpoint's status and reason, decided once: the auto gate (identical or within tolerance is
 * unchanged), then the human gate (an approval), then the AI gate (the evaluator); a changed pair
 * nobody judged needs review.
 */
export function decide(input: DecisionInput): Decision {
  const { comparison } = input;
  const plain = (status: CheckpointStatus, reason: string): Decision => ({ status, reason, evaluation: null });
  switch (comparison.kind) {
    case 'baseline-only':
      return plain('missing', 'in the baseline only: the current run did not capture it');
    case 'same-code':
      return plain('unchanged', 'base and current are the same commit with a clean tree');
    case 'current-only':
      return plain('new', input.baseError ? `no baseline: ${input.baseError}` : 'no baseline: the base version does not take this checkpoint');
    case 'errored':
      return plain('errored', comparison.message);
    case 'identical':
      return plain('unchanged', 'identical');
    case 'within-tolerance':
      return plain('unchanged', 'within tolerance');
    case 'different':
      if (input.approval) return plain('changed', describeApproval(input.approval));
      if (input.judgement) return judged(input.judgement, input.signals);
      return plain('needs_review', NO_EVALUATOR_REASON);
  }
}

/** A checkpoint as the results file, the annotations and the summary show it. */
export interface CheckpointVerdict extends Decision {
  name: string;
  baselineImage: string | null;
  currentImage: string | null;
  diffImage: string | null;
  /** Always an object: zero when nothing changed or nothing was compared. */
  diffMetrics: DiffMetrics;
  /** What current has that base has not, besides pixels; never changes an unchanged status. */
  signals: CheckpointSignals;
  /** Whether the current capture settled (two consecutive captures matched); null when current took none. */
  stable: boolean | null;
}

export interface Judged extends Compared {
  approval: Approval | null;
  judgement: EvaluatorVerdict | null;
}

export function verdictOf(checkpoint: Judged): CheckpointVerdict {
  const { pair, comparison, signals } = checkpoint;
  const images = imagesOf(checkpoint);
  const decision = decide({ comparison, baseError: checkpoint.test.baselineError, approval: checkpoint.approval, judgement: checkpoint.judgement, signals });
  return {
    name: pair.name,
    ...decision,
    baselineImage: images.baseline,
    currentImage: images.current,
    diffImage: comparison.kind === 'different' ? comparison.diffImage : null,
    diffMetrics: comparison.kind === 'different' || comparison.kind === 'within-tolerance' ? comparison.metrics : NO_DIFF,
    signals,
    stable: pair.meta?.stable ?? null,
  };
}

export function testStatus(status: Compared['test']['status'], checkpoints: CheckpointVerdict[]): TestStatus {
  const ran = status === 'passed' || status === 'skipped';
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
