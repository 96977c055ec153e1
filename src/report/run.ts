import { reviewApprovals, type Approval, type ApprovalSubject } from '../approve';
import type { Settings } from '../config/options';
import type { Evaluator } from '../evaluate';
import type { RunContext, TestStatus } from '../types';
import { compareCheckpoints, imagesOf, type Compared } from './assess';
import type { CollectedTest } from './collect';
import { testStatus, verdictOf, type CheckpointVerdict } from './decide';
import { judgeChanged } from './judge';
import type { ComparedCount } from './sanity';

export interface TestOutcome {
  test: CollectedTest;
  status: TestStatus;
  checkpoints: CheckpointVerdict[];
}

/** What the approvals file did in a run. */
export interface ApprovalOutcome {
  applied: number;
  /** Approvals of a checkpoint this run captured whose images are no longer the approved pair. */
  stale: Approval[];
}

export interface RunVerdicts {
  outcomes: TestOutcome[];
  approvals: ApprovalOutcome;
  /** How many checkpoints the evaluator judged. */
  judged: number;
  /** A baseline image could not be read: its cache entry must not be used again. */
  baselineUnreadable: boolean;
  compared: ComparedCount;
}

export interface RunInput {
  tests: CollectedTest[];
  context: RunContext | null;
  settings: Settings;
  approvals: Approval[];
  evaluator: Evaluator | null;
}

export function approvalSubject(checkpoint: Compared): ApprovalSubject {
  const images = imagesOf(checkpoint);
  return { test: checkpoint.test.key, checkpoint: checkpoint.pair.name, baselineImage: images.baseline, currentImage: images.current };
}

/**
 * The verdicts of a run, stage by stage, each taking values and returning new ones:
 * compare (the auto gate) → approvals (the human gate) → evaluate (the AI gate) → decide.
 * Nothing here writes a file the results name or touches Playwright's objects.
 */
export async function judgeRun(input: RunInput): Promise<RunVerdicts> {
  const compared = await compareCheckpoints(input.tests, input.context, input.settings);
  const review = await reviewApprovals(input.approvals, compared.map(approvalSubject));
  const approved = compared.map((checkpoint, i) => ({ ...checkpoint, approval: review.matches[i] }));
  const judged = await judgeChanged(approved, input.evaluator, input.context);
  const byTest = new Map<CollectedTest, CheckpointVerdict[]>(input.tests.map((test) => [test, []]));
  for (const checkpoint of judged) byTest.get(checkpoint.test)!.push(verdictOf(checkpoint));
  const outcomes = [...byTest].map(([test, checkpoints]): TestOutcome => ({ test, status: testStatus(test.status, checkpoints), checkpoints }));
  return {
    outcomes,
    approvals: { applied: review.matches.filter(Boolean).length, stale: review.stale },
    judged: judged.filter((checkpoint) => checkpoint.judgement).length,
    baselineUnreadable: compared.some(({ comparison }) => comparison.kind === 'errored' && comparison.side === 'baseline'),
    compared: {
      pairs: compared.filter(({ comparison }) => ['identical', 'within-tolerance', 'different'].includes(comparison.kind)).length,
      identical: compared.filter(({ comparison }) => comparison.kind === 'identical').length,
    },
  };
}
