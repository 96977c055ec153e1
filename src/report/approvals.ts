import { describeApproval, hashImage, sameCheckpoint, type Approval } from '../approve';
import type { CollectedTest } from './collect';
import type { CheckpointVerdict } from './verdicts';

export interface ApprovalOutcome {
  applied: number;
  /** Approvals of a checkpoint this run captured, whose images are no longer the approved pair. */
  stale: Approval[];
}

/**
 * The human gate, before the AI gate: a changed pair that matches an approval byte for byte is
 * `changed` ("approved by …") and never sent to the evaluator.
 */
export function applyApprovals(compared: { test: CollectedTest; checkpoints: CheckpointVerdict[] }[], approvals: Approval[]): ApprovalOutcome {
  if (approvals.length === 0) return { applied: 0, stale: [] };
  let applied = 0;
  const used = new Set<Approval>();
  const seen = new Set<Approval>();
  for (const { test, checkpoints } of compared) {
    checkpoints.forEach((verdict, index) => {
      const candidates = approvals.filter((approval) => sameCheckpoint(approval, { test: test.key, checkpoint: verdict.name }));
      if (candidates.length === 0) return;
      candidates.forEach((approval) => seen.add(approval));
      if (!verdict.diffImage || !verdict.baselineImage || !verdict.currentImage) return;
      const baseline = hashImage(verdict.baselineImage);
      const current = hashImage(verdict.currentImage);
      const match = candidates.find((approval) => approval.baseline === baseline && approval.current === current);
      if (!match) return;
      used.add(match);
      applied++;
      checkpoints[index] = { ...verdict, status: 'changed', reason: describeApproval(match) };
    });
  }
  return { applied, stale: [...seen].filter((approval) => !used.has(approval)) };
}
