import type { Label } from '../approve';
import type { JudgedStatus } from '../evaluate';
import type { Evaluation } from '../types';

/**
 * The arithmetic of `visual-uat eval`: what the model made of each labelled case, set against what
 * the person decided. Pure functions over values.
 */

/**
 * What a run would have made of a labelled case: the evaluator's status, `unchanged` when the
 * current diff engine finds no difference (the model is never asked), `not_judged` when the images
 * could not be compared or the evaluator gave no usable answer.
 */
export type CaseStatus = JudgedStatus | 'unchanged' | 'not_judged';

export interface CaseOutcome {
  id: string;
  /** `<test title path> › <checkpoint>`, for people. */
  title: string;
  label: Label;
  status: CaseStatus;
  evaluation: Evaluation | null;
  /** The model's reason, or why the case was not judged. */
  reason: string;
}

/** One case in a list of the figures. */
export interface CaseRef {
  id: string;
  title: string;
  status: CaseStatus;
  confidence: number | null;
  reason: string;
}

export interface EvalFigures {
  cases: number;
  intended: number;
  regressions: number;
  /** Cases the model answered. */
  judged: number;
  /** Intended changes approved (`changed`) plus regressions rejected (`regression`). */
  agreed: number;
  /** agreed / cases, from 0 to 1. */
  agreement: number;
  /** Labelled regressions the model would have approved: the number that matters. */
  regressionsApproved: CaseRef[];
  regressionsRejected: number;
  /** Regressions left to a person (`needs_review`): caught, but not called. */
  regressionsToReview: number;
  intendedApproved: number;
  /** Intended changes a person would have had to look at (`needs_review`, or called a regression). */
  intendedToReview: CaseRef[];
  /** No answer from the model (an evaluator error, unreadable images). */
  notJudged: CaseRef[];
  /** Identical, or within tolerance, under the current diff engine: never sent to the model. */
  unchanged: CaseRef[];
}

/** Approval at a confidence: at `approveAt` = this value, how many of each label would pass. */
export interface ConfidenceRow {
  atLeast: number;
  regressionsApproved: number;
  intendedApproved: number;
}

function ref(outcome: CaseOutcome): CaseRef {
  return {
    id: outcome.id,
    title: outcome.title,
    status: outcome.status,
    confidence: outcome.evaluation?.confidence ?? null,
    reason: outcome.reason,
  };
}

export function scoreOutcomes(outcomes: CaseOutcome[]): EvalFigures {
  const intended = outcomes.filter((o) => o.label === 'intended');
  const regressions = outcomes.filter((o) => o.label === 'regression');
  const agreed = intended.filter((o) => o.status === 'changed').length + regressions.filter((o) => o.status === 'regression').length;
  return {
    cases: outcomes.length,
    intended: intended.length,
    regressions: regressions.length,
    judged: outcomes.filter((o) => o.evaluation !== null).length,
    agreed,
    agreement: outcomes.length ? Math.round((agreed / outcomes.length) * 1000) / 1000 : 0,
    regressionsApproved: regressions.filter((o) => o.status === 'changed').map(ref),
    regressionsRejected: regressions.filter((o) => o.status === 'regression').length,
    regressionsToReview: regressions.filter((o) => o.status === 'needs_review').length,
    intendedApproved: intended.filter((o) => o.status === 'changed').length,
    intendedToReview: intended.filter((o) => o.status === 'needs_review' || o.status === 'regression').map(ref),
    notJudged: outcomes.filter((o) => o.status === 'not_judged').map(ref),
    unchanged: outcomes.filter((o) => o.status === 'unchanged').map(ref),
  };
}

/** A "pass" the model did not hedge: what becomes `changed` once its confidence reaches approveAt. */
function confidentPass(evaluation: Evaluation | null): evaluation is Evaluation {
  return evaluation?.pass === true && !evaluation.needsReview;
}

/** Labelled regressions the model would have approved at `approveAt` = `confidence`. */
export function regressionsApprovedAt(outcomes: CaseOutcome[], confidence: number): CaseOutcome[] {
  return outcomes.filter((o) => o.label === 'regression' && confidentPass(o.evaluation) && o.evaluation.confidence >= confidence);
}

/**
 * The trade-off between letting regressions through and sending intended changes to review, at
 * each confidence the model gave an unhedged "pass", highest first.
 */
export function confidenceCurve(outcomes: CaseOutcome[]): ConfidenceRow[] {
  const levels = [...new Set(outcomes.flatMap((o) => (confidentPass(o.evaluation) ? [o.evaluation.confidence] : [])))].sort(
    (a, b) => b - a,
  );
  return levels.map((atLeast) => ({
    atLeast,
    regressionsApproved: regressionsApprovedAt(outcomes, atLeast).length,
    intendedApproved: outcomes.filter((o) => o.label === 'intended' && confidentPass(o.evaluation) && o.evaluation.confidence >= atLeast)
      .length,
  }));
}

/** The highest confidence at which the model approved a labelled regression; null when it approved none. */
export function riskiestApproval(outcomes: CaseOutcome[]): number | null {
  const confidences = regressionsApprovedAt(outcomes, 0).map((o) => o.evaluation!.confidence);
  return confidences.length ? Math.max(...confidences) : null;
}
