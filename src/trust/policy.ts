import { PROMPT_VERSION, type ResolvedAutoApprove } from '../evaluate';
import { plural } from '../util/text';
import type { EvalRecord } from './eval-record';
import { regressionsApprovedAt } from './score';

/**
 * Trust as a policy (`evaluator.autoApprove`): a model's "pass" becomes `changed` only when the
 * last `visual-uat eval` of that model on this project let no labelled regression through at the
 * verdict's confidence. Pure: the record is read by the caller.
 */

export type TrustDecision = { allow: true } | { allow: false; reason: string };

/**
 * Why an eval says nothing about a model's passes, whatever their confidence: it could not judge
 * some labelled regressions, or it judged none. Null when it measured something.
 */
export function evalGap(record: EvalRecord): { kind: 'unjudged'; regressions: number } | { kind: 'no-regressions' } | null {
  const regressions = record.outcomes.filter((outcome) => outcome.label === 'regression');
  const unjudged = regressions.filter((outcome) => outcome.status === 'not_judged').length;
  if (unjudged) return { kind: 'unjudged', regressions: unjudged };
  if (!regressions.some((outcome) => outcome.evaluation !== null)) return { kind: 'no-regressions' };
  return null;
}

function describe(record: EvalRecord): string {
  return `the last eval of ${record.model} (${record.at.slice(0, 10)}, ${plural(record.figures.cases, 'case')})`;
}

/**
 * Whether a "pass" of `model` at `confidence` may become `changed` without a person. With the
 * policy off (null) everything the thresholds approve is allowed.
 */
export function trustedVerdict(
  record: EvalRecord | null,
  model: string,
  confidence: number,
  policy: ResolvedAutoApprove | null,
): TrustDecision {
  if (!policy) return { allow: true };
  if (confidence < policy.minConfidence)
    return { allow: false, reason: `confidence ${confidence} is below evaluator.autoApprove.minConfidence (${policy.minConfidence})` };
  const usable = record && record.model === model ? record : null;
  if (!usable || usable.promptVersion !== PROMPT_VERSION) {
    if (!policy.requireEval) return { allow: true };
    const why = usable ? `the last eval of ${model} used another version of the prompt` : `no eval of ${model} on this project yet`;
    return { allow: false, reason: `${why}: run npx visual-uat eval to measure it` };
  }
  const gap = evalGap(usable);
  if (gap?.kind === 'unjudged')
    return {
      allow: false,
      reason: `${describe(usable)} could not judge ${plural(gap.regressions, 'labelled regression')}: run npx visual-uat eval again`,
    };
  if (gap?.kind === 'no-regressions')
    return {
      allow: false,
      reason: `${describe(usable)} had no labelled regression to catch: label some, or run npx visual-uat eval --corpus`,
    };
  const letThrough = regressionsApprovedAt(usable.outcomes, confidence);
  if (letThrough.length)
    return {
      allow: false,
      reason:
        `at confidence ${confidence}, ${describe(usable)} approved ${plural(letThrough.length, 'labelled regression')} ` +
        `(${letThrough.map((outcome) => outcome.id).join(', ')})`,
    };
  return { allow: true };
}
