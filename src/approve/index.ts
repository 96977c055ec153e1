export { APPROVALS_FILE, approvalsPath, describeApproval, readApprovals, writeApprovals, type Approval, type Verdict } from './file';
export { classify, names, resemblance, reviewApprovals, settle, settleChange, tally, type ApprovalSubject, type ApprovalTally, type Settled } from './rule';
export { recordDecisions, type DecisionRequest, type Recorded } from './decisions';
export {
  caseId,
  labelledCase,
  readLabels,
  writeLabel,
  type DecidedCheckpoint,
  type Decision,
  type Label,
  type LabelledCase,
  type LabelledChange,
  type LoadedCase,
} from './labels';
