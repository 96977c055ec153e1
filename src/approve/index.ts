export { APPROVALS_FILE, approvalsPath, readApprovals, writeApprovals, type Approval, type DecisionKind } from '../files/approvals-file';
export {
  classify,
  coveringDecision,
  coveringDecisionOfShown,
  decidedIn,
  describeApproval,
  names,
  resemblance,
  reviewApprovals,
  tally,
  type ApprovalSubject,
  type ApprovalTally,
  type CoveringDecision,
} from './rule';
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
