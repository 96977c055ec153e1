import type { Evaluation } from '../types';
import type { JudgedStatus } from './request';

export interface Thresholds {
  approveAt: number;
  rejectAt: number;
}

/**
 * The AI gate: a confident "intended" is a change, a confident "not intended" a regression;
 * anything less sure, or a verdict that asks for a person, goes to the human gate.
 */
export function statusOf(evaluation: Evaluation, thresholds: Thresholds): JudgedStatus {
  if (evaluation.needsReview) return 'needs_review';
  if (evaluation.pass && evaluation.confidence >= thresholds.approveAt) return 'changed';
  if (!evaluation.pass && evaluation.confidence >= thresholds.rejectAt) return 'regression';
  return 'needs_review';
}
