export { APPROVALS_FILE, approvalsPath, describeApproval, formatApprovals, readApprovals, writeApprovals, type Approval, type DecidedCheckpoint, type Scope, type Verdict } from './file';
export { classify, memoHasher, names, reviewApprovals, settle, settleChange, tally, type Applied, type ApplyHow, type ApprovalFit, type ApprovalReview, type ApprovalSubject, type ApprovalTally, type Hasher, type Settled, type StaleCheckpoint } from './rule';
export { recordDecisions, type DecisionRequest, type DecisionTarget, type Recorded } from './record';
