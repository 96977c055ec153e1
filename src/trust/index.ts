export { formatEval } from './format';
export { readEvalRecord, type EvalRecord } from './eval-record';
export { evalExitCode, EvalSetupError, runEval, shippedCorpus, type EvalRun } from './run';
export { confidenceCurve, regressionsApprovedAt, riskiestApproval, scoreOutcomes, type CaseOutcome } from './score';
export { trustedVerdict } from './policy';
