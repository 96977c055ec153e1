export { formatEval } from './format';
export { readEvalRecord, type EvalRecord } from './record';
export { evalExitCode, EvalSetupError, runEval, shippedCorpus, type EvalRun } from './run';
export { confidenceCurve, regressionsApprovedAt, riskiestApproval, scoreOutcomes, type CaseOutcome } from './score';
export { trustedVerdict } from './trust';
