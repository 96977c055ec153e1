export { formatEval } from './format';
export { evalRecordPath, readEvalRecord, writeEvalRecord, type EvalRecord } from './record';
export { caseTitle, replayCases, requestFor } from './replay';
export { evalExitCode, EvalSetupError, runEval, shippedCorpus, type EvalResult, type EvalRun } from './run';
export { confidenceCurve, regressionsApprovedAt, riskiestApproval, scoreOutcomes, type CaseOutcome, type CaseRef, type CaseStatus, type ConfidenceRow, type EvalFigures } from './score';
export { trustedVerdict, type TrustDecision } from './trust';
