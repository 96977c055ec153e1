export { createEvaluator, type Evaluator, type EvaluatorRuntime } from './evaluator';
export type { EvaluationRequest, EvaluatorVerdict, JudgedStatus } from './request';
export { autoApprovePolicy, EvaluatorConfigError, type ResolvedAutoApprove } from './evaluator-settings';
export { statusOf, type Thresholds } from './status';
export { PROMPT_VERSION } from './prompt';
