import type { Approval } from '../approve';
import type { PairComparison } from '../compare';
import type { EvaluationRequest, Evaluator, EvaluatorVerdict } from '../evaluate';
import type { RunContext } from '../types';
import type { Compared } from './assess';

type Different = Compared & { comparison: Extract<PairComparison, { kind: 'different' }> };
type Approved = Compared & { approval: Approval | null };

/** What the evaluator is told about one changed checkpoint. */
export function evaluationRequest(checkpoint: Different, context: RunContext | null): EvaluationRequest {
  const { test, pair, comparison } = checkpoint;
  return {
    name: pair.name,
    project: test.project,
    intent: { test: test.meta?.options.intent ?? null, checkpoint: pair.meta?.intent ?? null, titlePath: test.titlePath },
    context,
    metrics: comparison.metrics,
    signals: checkpoint.signals,
    images: { baseline: pair.baseline!, current: pair.current!, diff: comparison.diffImage },
  };
}

/** A changed pair no approval settled: the evaluator's to judge. */
function awaitsJudgement<T extends Approved>(checkpoint: T): checkpoint is T & Different {
  return checkpoint.comparison.kind === 'different' && checkpoint.approval === null;
}

/** The AI gate over the run: each changed, unapproved checkpoint gets the evaluator's verdict (none without an evaluator). */
export async function judgeChanged<T extends Approved>(
  checkpoints: T[],
  evaluator: Evaluator | null,
  context: RunContext | null,
): Promise<(T & { judgement: EvaluatorVerdict | null })[]> {
  const waiting = evaluator ? checkpoints.filter(awaitsJudgement) : [];
  const verdicts = evaluator ? await evaluator.evaluateAll(waiting.map((checkpoint) => evaluationRequest(checkpoint, context))) : [];
  const judged = new Map<Compared, EvaluatorVerdict>(waiting.map((checkpoint, i) => [checkpoint, verdicts[i]]));
  return checkpoints.map((checkpoint) => ({ ...checkpoint, judgement: judged.get(checkpoint) ?? null }));
}
