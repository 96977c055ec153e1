import type { PairComparison } from '../compare';
import type { EvaluationRequest, Evaluator, EvaluatorVerdict } from '../evaluate';
import type { EvalRecord } from '../trust/eval-record';
import { trustedVerdict } from '../trust/policy';
import type { RunContext } from '../types';
import type { CodeChange } from '../git/code-change';
import type { Compared } from './assess';

export type Different = Compared & { comparison: Extract<PairComparison, { kind: 'different' }> };

/** A group the evaluator judges once, on one of its checkpoints. */
export interface GroupToJudge {
  group: string;
  representative: Different;
  /** The checkpoints that show the change (test key › checkpoint): the verdict applies to all of them. */
  shownOn: string[];
  /** The Playwright projects they are in, when more than one. */
  projects: string[];
}

/** What the evaluator is told about a group's representative checkpoint. */
export function evaluationRequest(judge: GroupToJudge, context: RunContext | null, code: readonly CodeChange[] = []): EvaluationRequest {
  const { test, pair, comparison, signals, explanation } = judge.representative;
  const causes = explanation?.changes.flatMap((change) => (change.cause ? [change.cause] : [])) ?? [];
  return {
    name: pair.name,
    project: test.project,
    intent: { test: test.meta?.options.intent ?? null, checkpoint: pair.meta?.intent ?? null, titlePath: test.titlePath },
    context,
    metrics: comparison.metrics,
    signals,
    images: { baseline: pair.baseline!, current: pair.current!, diff: comparison.diffImage },
    change: comparison.change,
    explanation,
    code: code.filter((change) => causes.some((cause) => cause.file === change.file && cause.commit === change.commit)),
    group: { id: judge.group, shownOn: judge.shownOn, ...(judge.projects.length ? { projects: judge.projects } : {}) },
  };
}

/**
 * The AI gate over the run: one verdict per group that no person settled. None without an
 * evaluator; when one was configured but could not be made, each group is not judged, and says why.
 */
export async function judgeGroups(
  groups: GroupToJudge[],
  evaluator: Evaluator | null,
  context: RunContext | null,
  code: readonly CodeChange[] = [],
  problem: string | null = null,
): Promise<Map<string, EvaluatorVerdict>> {
  if (!evaluator && problem)
    return new Map(
      groups.map((group) => [group.group, { status: 'needs_review', evaluation: null, reason: `not judged: ${problem}`, cached: false }]),
    );
  if (!evaluator || groups.length === 0) return new Map();
  const verdicts = await evaluator.evaluateAll(groups.map((group) => evaluationRequest(group, context, code)));
  return new Map(groups.map((group, i) => [group.group, verdicts[i]]));
}

/**
 * The trust policy (`evaluator.autoApprove`) over the verdicts: a "pass" the last eval of the
 * model does not vouch for at its confidence needs a person, with the reason why. Cached verdicts
 * go through it too: the policy is about the model, not about when it answered.
 */
export function trustVerdicts(
  verdicts: Map<string, EvaluatorVerdict>,
  evaluator: Evaluator | null,
  record: EvalRecord | null,
): Map<string, EvaluatorVerdict> {
  const policy = evaluator?.autoApprove;
  if (!evaluator || !policy) return verdicts;
  const trusted = (verdict: EvaluatorVerdict): EvaluatorVerdict => {
    if (verdict.status !== 'changed' || !verdict.evaluation) return verdict;
    const trust = trustedVerdict(record, evaluator.model, verdict.evaluation.confidence, policy);
    return trust.allow
      ? verdict
      : { ...verdict, status: 'needs_review', reason: `${verdict.reason} Not approved automatically: ${trust.reason}.` };
  };
  return new Map([...verdicts].map(([group, verdict]) => [group, trusted(verdict)]));
}
