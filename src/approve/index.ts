export { APPROVALS_FILE, approvalsPath, describeApproval, formatApprovals, readApprovals, writeApprovals, type Approval } from './file';
export { approvalOf, classify, concerns, reviewApprovals, type ApprovalFit, type ApprovalReview, type ApprovalSubject, type ChangedSubject } from './rule';
