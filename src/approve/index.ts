export { APPROVALS_FILE, approvalsPath, describeApproval, formatApprovals, readApprovals, writeApprovals, type Approval, type ApprovalCheckpoint, type Scope, type Verdict } from './file';
export { classify, memoHasher, names, reviewApprovals, settle, settleChange, tally, type Applied, type ApplyHow, type ApprovalFit, type ApprovalReview, type ApprovalSubject, type ApprovalTally, type Hasher, type Settled, type StaleCheckpoint } from './rule';
export { recordDecisions, type DecisionRequest, type DecisionTarget, type Recorded } from './record';
export {
  BASELINE_IMAGE,
  CASE_FILE,
  CURRENT_IMAGE,
  LABEL_FORMAT_VERSION,
  caseId,
  caseProblem,
  formatCase,
  labelledCase,
  readLabels,
  writeLabel,
  type DecidedCheckpoint,
  type Decision,
  type Label,
  type LabelSource,
  type LabelStore,
  type LabelledCase,
  type LabelledChange,
  type LoadedCase,
} from './labels';
