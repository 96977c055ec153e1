export { APPROVALS_FILE, approvalsPath, describeApproval, formatApprovals, readApprovals, writeApprovals, type Approval } from './file';
export { approvalOf, classify, concerns, reviewApprovals, type ApprovalFit, type ApprovalReview, type ApprovalSubject, type ChangedSubject } from './rule';
export {
  BASELINE_IMAGE,
  CASE_FILE,
  CURRENT_IMAGE,
  LABEL_FORMAT_VERSION,
  caseId,
  caseProblem,
  formatCase,
  labelledCase,
  labelsFolder,
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
