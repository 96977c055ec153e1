export { createEvaluator, type Evaluator, type EvaluatorRuntime } from './evaluator';
export type { EvaluationRequest, EvaluatorVerdict, JudgedStatus } from './request';
export { EvaluatorConfigError, DEFAULT_MODEL } from './settings';
export { statusOf, type Thresholds } from './status';
export { DEFAULT_PRICES, type Price, type PriceTable } from './prices';
